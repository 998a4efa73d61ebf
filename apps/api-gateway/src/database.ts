import type { DataSourceSpec } from '#libs/persistence';
import { CreateIdempotencyKeys1795500000000 } from './migrations/1795500000000-CreateIdempotencyKeys.js';

export const GATEWAY_SCHEMA = 'gateway';

/** The gateway's own schema: idempotency records only; it publishes no events. */
export const gatewayDataSourceSpec: DataSourceSpec = {
  schema: GATEWAY_SCHEMA,
  entities: [],
  migrations: [CreateIdempotencyKeys1795500000000],
  outbox: false,
};
