import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePorts } from '#libs/testing';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'baseline-server.js');
const SCHEMA = 'bench_baseline';
const READY_TIMEOUT_MS = 20_000;

export interface Baselines {
  helloUrl: string;
  /** GET: one row by primary key behind a NATS request. */
  readUrl: string;
  /** POST: one capacity-checked UPDATE and one INSERT in a transaction behind a NATS request. */
  writeUrl: string;
  stop(): Promise<void>;
}

/** The baseline tables, in a schema of their own in the stack's database: one slot of ample capacity. */
async function prepareSchema(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const slotId = randomUUID();
    await client.query(`CREATE SCHEMA "${SCHEMA}"`);
    await client.query(`CREATE TABLE "${SCHEMA}".slots (id uuid PRIMARY KEY, capacity integer NOT NULL, taken integer NOT NULL DEFAULT 0)`);
    await client.query(
      `CREATE TABLE "${SCHEMA}".registrations (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), slot_id uuid NOT NULL REFERENCES "${SCHEMA}".slots (id), created_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(`INSERT INTO "${SCHEMA}".slots (id, capacity) VALUES ($1, 2000000000)`, [slotId]);
    return slotId;
  } finally {
    await client.end();
  }
}

function start(role: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [SERVER, role], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.resume();
  return child;
}

async function waitFor(url: string, init: RequestInit, children: ChildProcess[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (
      await fetch(url, init).then(
        (res) => res.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline || children.some((child) => child.exitCode !== null)) throw new Error(`the baseline at ${url} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The three bare baselines, each in processes of its own, on the stack's Postgres and NATS. */
export async function startBaselines(databaseUrl: string, natsUrl: string): Promise<Baselines> {
  const slotId = await prepareSchema(databaseUrl);
  const [helloPort, frontPort] = await freePorts(2);
  const shared = { NATS_URL: natsUrl, SUBJECT_PREFIX: `bench${randomBytes(4).toString('hex')}.`, DATABASE_URL: databaseUrl, SCHEMA };
  const children = [
    start('hello', { ...shared, PORT: String(helloPort) }),
    start('responder', shared),
    start('front', { ...shared, PORT: String(frontPort) }),
  ];
  const baselines: Baselines = {
    helloUrl: `http://127.0.0.1:${helloPort}/hello`,
    readUrl: `http://127.0.0.1:${frontPort}/read/${slotId}`,
    writeUrl: `http://127.0.0.1:${frontPort}/write/${slotId}`,
    async stop() {
      await Promise.all(
        children.map((child) =>
          child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM')) : undefined,
        ),
      );
    },
  };
  try {
    await waitFor(baselines.helloUrl, {}, children);
    await waitFor(baselines.readUrl, {}, children);
  } catch (err) {
    await baselines.stop();
    throw err;
  }
  return baselines;
}
