import type { DataSourceSpec } from '#libs/persistence';
import { CreateIdempotencyKeys1795500000000 } from './migrations/1795500000000-CreateIdempotencyKeys.js';
import { Retention1796450000000 } from './migrations/1796450000000-Retention.js';

export const GATEWAY_SCHEMA = 'gateway';

/** The gateway's own schema: idempotency records only; it publishes no events. */
export const gatewayDataSourceSpec: DataSourceSpec = {
  schema: GATEWAY_SCHEMA,
  entities: [],
  migrations: [CreateIdempotencyKeys1795500000000, Retention1796450000000],
  outbox: false,
};
