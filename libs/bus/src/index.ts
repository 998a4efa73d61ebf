export {
  DEFAULT_MAX_DELIVER,
  type Bus,
  type ConsumeOptions,
  type ConsumerBacklog,
  type EventHandler,
  type JsonText,
  type RequestOptions,
  type Subscription,
} from './bus.js';
export { checkHandlers, type BusLogger, type ReplyEnvelope } from './envelope.js';
export { InProcessBus } from './in-process-bus.js';
export { NatsBus, natsConnectionOptions, type NatsBusOptions } from './nats-bus.js';
export {
  caused,
  enqueueEvents,
  outboxMigration,
  outboxMigrationSql,
  outboxRetentionSql,
  outboxTraceContextMigration,
  outboxTraceContextSql,
  qualified,
  type CausedEvent,
} from './outbox.js';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
export { consumeOnce, type ConsumeOnceOptions } from './durable-consumer.js';
export { DUPLICATE_WINDOW_MS, MAX_AGE_MS as STREAM_MAX_AGE_MS } from './nats-stream.js';
export {
  deployedNatsUsers,
  inboxPrefixOf,
  natsAuthorizationConfig,
  natsPermissionsFor,
  natsPermissionsOf,
  type BusScope,
  type NatsPermissions,
  type NatsUser,
} from './nats-permissions.js';
