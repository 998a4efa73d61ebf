export { serving, type AppContext, type AppDefinition, type Serving } from './app-definition.js';
export { Outbox, type EventInput, type Tx } from './outbox.js';
export type { Infrastructure } from './infrastructure.js';
export { bootApp, type RunningApp } from './boot.js';
export { RuntimeModule } from './runtime.module.js';
export { APP_CONFIG, APP_CONTEXT, BUS, DATA_SOURCE, HEALTH_INDICATORS, LOGGER, METRICS } from './tokens.js';
export { runStandalone } from './standalone.js';
export { LOCAL_SERVICES, servicesInfrastructure, streamNameFor } from './services-infrastructure.js';
export { allInOneInfrastructure } from './all-in-one-infrastructure.js';
export { EventConsumer, type AppConsumerOptions } from './app-consumer.js';
export {
  RetentionJob,
  hoursToSeconds,
  loadRetention,
  outboxPruneRules,
  retentionHours,
  retentionSpec,
  type RetentionConfig,
} from './retention.js';
