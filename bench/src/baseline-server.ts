import { connect, type NatsConnection } from '@nats-io/transport-node';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';

/**
 * The bare baselines the platform is measured against, one role per process (as the gateway
 * and a service are): `hello`, a Fastify hello route; `front`, Fastify routes that each make one
 * NATS request; `responder`, the NATS responder behind them, reading or writing Postgres with a
 * pool of 10 (the pool size of every app).
 *   GET /read/:id   → one row by primary key
 *   POST /write/:id → BEGIN; UPDATE slots … WHERE taken + 1 <= capacity; INSERT; COMMIT
 * A responder's failure answers 500. Settings: PORT, NATS_URL, SUBJECT_PREFIX, DATABASE_URL, SCHEMA.
 */
const role = process.argv[2];
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function natsConnection(): Promise<NatsConnection> {
  return connect({ servers: env('NATS_URL'), noAsyncTraces: true });
}

async function hello(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(env('PORT')), host: '127.0.0.1' });
}

async function front(): Promise<void> {
  const nc = await natsConnection();
  const prefix = env('SUBJECT_PREFIX');
  const app = Fastify({ logger: false });
  const forward = (subject: string, status: number) => async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const body = (await nc.request(`${prefix}${subject}`, req.params.id, { timeout: 5000 })).string();
    if (body === '') return reply.code(500).send({ error: 'the responder failed' });
    return reply
      .code(body === 'null' ? 404 : status)
      .type('application/json')
      .send(body);
  };
  app.get('/read/:id', forward('read', 200));
  app.post('/write/:id', forward('write', 201));
  await app.listen({ port: Number(env('PORT')), host: '127.0.0.1' });
}

async function responder(): Promise<void> {
  const nc = await natsConnection();
  const prefix = env('SUBJECT_PREFIX');
  const schema = env('SCHEMA');
  const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 10 });
  const serve = (subject: string, handle: (id: string) => Promise<unknown>) =>
    nc.subscribe(`${prefix}${subject}`, {
      queue: 'responder',
      callback: (err, msg) => {
        if (err) return;
        handle(msg.string()).then(
          (result) => msg.respond(JSON.stringify(result ?? null)),
          () => msg.respond(''),
        );
      },
    });
  serve('read', async (id) => (await pool.query(`SELECT id, capacity, taken FROM "${schema}".slots WHERE id = $1`, [id])).rows[0]);
  serve('write', async (id) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const updated = await client.query(
        `UPDATE "${schema}".slots SET taken = taken + 1 WHERE id = $1 AND taken + 1 <= capacity RETURNING taken`,
        [id],
      );
      const inserted = await client.query(`INSERT INTO "${schema}".registrations (slot_id) VALUES ($1) RETURNING id`, [id]);
      await client.query('COMMIT');
      return { taken: updated.rows[0]?.taken, id: inserted.rows[0].id };
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  });
  await nc.flush();
  process.stdout.write('ready\n');
}

const roles: Record<string, () => Promise<void>> = { hello, front, responder };
const run = role ? roles[role] : undefined;
if (!run) {
  process.stderr.write(`usage: baseline-server.js ${Object.keys(roles).join('|')}\n`);
  process.exit(2);
}
run().catch((err: unknown) => {
  process.stderr.write(`baseline ${role} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
process.once('SIGTERM', () => process.exit(0));
