// Checks that Postgres, NATS (with JetStream) and Redis answer before the tests run.
// With CI=true a missing service fails the run naming it; otherwise it only warns.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function withTimeout(name, fn) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5000);
  });
  try {
    await Promise.race([fn(), timeout]);
    return undefined;
  } catch (err) {
    return `${name}: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    clearTimeout(timer);
  }
}

const failures = (
  await Promise.all([
    withTimeout(`PostgreSQL at ${databaseUrl}`, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
    }),
    withTimeout(`NATS with JetStream at ${natsUrl}`, async () => {
      const nc = await connect({ servers: natsUrl, reconnect: false });
      await (await jetstreamManager(nc)).getAccountInfo();
      await nc.close();
    }),
    withTimeout(`Redis at ${redisUrl}`, async () => {
      const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      await redis.connect();
      await redis.ping();
      redis.disconnect();
    }),
  ])
).filter(Boolean);

if (failures.length > 0) {
  const message = `These services are not reachable:\n  - ${failures.join('\n  - ')}\nStart them (see README, "Running the tests").`;
  if (process.env.CI === 'true') {
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
  process.stderr.write(`warning: ${message}\nOutside CI the tests fall back to the embedded adapters where they can.\n`);
}
