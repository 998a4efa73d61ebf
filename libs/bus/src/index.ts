export type { Bus, ConsumeOptions, EventHandler, RequestOptions, Subscription } from './bus.js';
export { checkHandlers, type BusLogger, type ReplyEnvelope } from './envelope.js';
export { InProcessBus } from './in-process-bus.js';
