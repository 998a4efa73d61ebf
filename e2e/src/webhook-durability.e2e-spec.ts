import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { NatsBus } from '#libs/bus';
import { cloudEvent, type DeliveryView, newPrefixedId, type Principal } from '#libs/contracts';
import { createLogger } from '#libs/observability';
import { createTestDatabase, type TestDatabase } from '#libs/persistence';
import { streamNameFor } from '#libs/runtime';
import { ALL_SCOPES } from '#libs/scopes';
import { eventually, type Receiver, signupViewData, startReceiver, verifyWebhook } from '#libs/testing';
import { type PrivateNats, startPrivateNats } from './support/private-nats.js';
import { type AppProcess, startAppProcess } from './support/processes.js';
import { stackInfo } from './support/stack-env.js';

const principal = (): Principal => ({
  userId: newPrefixedId('usr'),
  organizationId: newPrefixedId('org'),
  tier: 'org',
  livemode: false,
  scopes: ALL_SCOPES,
  credentialId: newPrefixedId('key'),
  kind: 'api_key',
});

/**
 * The dispatcher as separate processes on a database and a NATS server of this file's own, so
 * the tests can kill a dispatcher or the NATS server without touching the shared stack.
 */
describe('webhook delivery durability', () => {
  let database: TestDatabase;
  let nats: PrivateNats;
  let bus: NatsBus;
  let receiver: Receiver;
  let env: Record<string, string>;
  const running: AppProcess[] = [];

  const start = async (app: 'webhooks-dispatcher' | 'signups-service') => {
    const started = await startAppProcess(app, env);
    running.push(started);
    return started;
  };

  beforeAll(async () => {
    database = await createTestDatabase('webhook_durability');
    nats = await startPrivateNats();
    receiver = await startReceiver();
    env = {
      DATABASE_URL: database.url,
      NATS_URL: nats.url,
      NATS_PREFIX: '',
      REDIS_URL: stackInfo().env.REDIS_URL!,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      CONFIRMATION_TOKEN_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // The first retry waits long enough for a killed dispatcher to be gone before it is due.
      WEBHOOK_RETRY_SCHEDULE: '3s,1s,1s',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_POLL_MS: '50',
    };
    await start('webhooks-dispatcher');
    bus = await NatsBus.connect({
      url: nats.url,
      prefix: '',
      streamName: streamNameFor(''),
      name: 'durability-test',
      logger: createLogger('test', 'silent'),
      defaultTimeoutMs: 5000,
    });
  });

  afterAll(async () => {
    await bus?.close();
    for (const app of running) await app.stop('SIGKILL');
    await receiver?.close();
    await nats?.close();
    await database?.drop();
  });

  const endpoint = (owner: Principal, path: string, eventTypes?: string[]) =>
    bus.request('webhooks.create', { principal: owner, input: { url: receiver.url(path), ...(eventTypes && { eventTypes }) } });

  const history = async (owner: Principal, id: string): Promise<DeliveryView[]> =>
    (await bus.request('webhooks.deliveries.list', { principal: owner, id, query: { limit: 200 } })).data;

  function signupEvent(owner: Principal) {
    const now = new Date().toISOString();
    const data = signupViewData(owner.organizationId, {
      slug: 'durable-abc123',
      title: 'Durable',
      status: 'draft',
      eventDate: now,
      publicUrl: 'https://example.test/s/durable',
      livemode: false,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    });
    return cloudEvent('signups-service', 'signup.created', data, { orgid: owner.organizationId, livemode: false });
  }

  it('finishes a retry schedule after its dispatcher is killed, each attempt sent once', async () => {
    const owner = principal();
    const { endpoint: target } = await endpoint(owner, '/killed');
    receiver.answer('/killed', { status: 500 }, { status: 500 }, { status: 200 });
    const event = signupEvent(owner);
    await bus.publish(event);
    // Between attempts: the first one recorded, not merely claimed (a claim already counts it).
    await eventually(
      async () => expect(await history(owner, target.id)).toMatchObject([{ status: 'pending', attemptCount: 1, lastResponseStatus: 500 }]),
      10_000,
    );

    for (const app of running.splice(0)) await app.stop('SIGKILL');
    await start('webhooks-dispatcher');

    const [delivery] = await eventually(async () => {
      const deliveries = await history(owner, target.id);
      expect(deliveries).toMatchObject([{ status: 'succeeded' }]);
      return deliveries;
    }, 20_000);
    const sent = receiver.received.filter((r) => r.path === '/killed');
    expect(sent.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
    expect(delivery!.attemptCount).toBe(sent.length);
  });

  it('never sends one attempt twice with two dispatchers sharing the work', async () => {
    await start('webhooks-dispatcher');
    const owner = principal();
    const { endpoint: target } = await endpoint(owner, '/shared');
    receiver.answer('/shared', { status: 200, delayMs: 30 });
    const events = Array.from({ length: 40 }, () => signupEvent(owner));
    await Promise.all(events.map((event) => bus.publish(event)));
    await eventually(async () => {
      const deliveries = await history(owner, target.id);
      expect(deliveries).toHaveLength(40);
      expect(deliveries.every((d) => d.status === 'succeeded' && d.attemptCount === 1)).toBe(true);
    }, 20_000);
    const ids = receiver.received.filter((r) => r.path === '/shared').map((r) => String(r.headers['webhook-id']));
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('delivers every event committed while NATS was down, once it is back', async () => {
    await start('signups-service');
    const owner = principal();
    const { endpoint: target, signingSecret } = await endpoint(owner, '/outage', ['signup.created']);
    const create = (i: number) =>
      bus
        .request(
          'signups.create',
          // With its zone: no auth-server runs here to tell the organization's.
          { principal: owner, input: { title: `Outage ${i}`, eventDate: '2027-06-01T18:00:00.000Z', timeZone: 'UTC' } },
          { timeoutMs: 2000 },
        )
        .catch(() => undefined);
    const burst = Promise.all(
      Array.from({ length: 40 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 5)).then(() => create(i))),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    await nats.kill();
    await burst;
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const waiting = await db.query(`SELECT 1 FROM signups.outbox WHERE published_at IS NULL`);
      expect(waiting.rowCount).toBeGreaterThan(0);
      await nats.start();
      const committed = (
        await db.query<{ id: string }>(`SELECT id FROM signups.signups WHERE organization_id = $1`, [owner.organizationId])
      ).rows.map((r) => r.id);
      expect(committed.length).toBeGreaterThan(0);
      await eventually(async () => {
        const delivered = receiver.received
          .filter((r) => r.path === '/outage')
          .map((r) => (verifyWebhook(signingSecret, r) as { data: { id: string } }).data.id);
        expect(new Set(delivered)).toEqual(new Set(committed));
        expect(await history(owner, target.id)).toHaveLength(committed.length);
      }, 30_000);
      const unpublished = await db.query(`SELECT 1 FROM signups.outbox WHERE published_at IS NULL`);
      expect(unpublished.rowCount).toBe(0);
    } finally {
      await db.end();
    }
  });
});
