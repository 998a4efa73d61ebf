import { writeNatsConfig } from './nats-config.js';

/** `nx run deploy-check:nats-config`: regenerates the NATS authorization of docker-compose and the NATS chart values from the bus catalog. */
// Run from the workspace root (as nx runs it): the built script lives under dist/.
for (const file of writeNatsConfig(process.cwd())) process.stdout.write(`written: ${file}\n`);
