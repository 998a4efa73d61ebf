import { runStandalone } from '#libs/runtime';
import { mcpServerApp } from './index.js';

await runStandalone(mcpServerApp);
