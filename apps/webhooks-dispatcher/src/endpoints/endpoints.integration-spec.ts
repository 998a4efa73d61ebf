import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { etagOf, newPrefixedId, type Principal, type WebhookEndpointView } from '#libs/contracts';
import type { ProblemError } from '#libs/problem';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, type Receiver, startReceiver, type TestStack, verifyWebhook } from '#libs/testing';
import { webhooksDispatcherApp } from '../index.js';
import { caller, MISSHAPEN_CURSORS, problemOf } from '../testing/webhook-testing.js';

describe('webhook endpoints (local development: private targets allowed)', () => {
  let stack: TestStack;
  let app: RunningApp;
  let db: DataSource;
  let hooks: Receiver;

  beforeAll(async () => {
    stack = await createTestStack('webhook_endpoints', {
      env: { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' },
    });
    app = await stack.boot(webhooksDispatcherApp);
    db = app.context.dataSource!;
    hooks = await startReceiver();
  });

  afterAll(async () => {
    await hooks.close();
    await stack.close();
  });

  const create = (principal: Principal, input: Record<string, unknown> = {}) =>
    stack.bus.request('webhooks.create', { principal, input: { url: hooks.url(), ...input } as { url: string } });

  it('registers an endpoint for every event type and shows its whsec_ secret once, sealed at rest', async () => {
    const principal = caller();
    const { endpoint, signingSecret } = await create(principal, { description: 'Orders' });
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: hooks.url(),
      description: 'Orders',
      eventTypes: ['*'],
      paused: false,
      pausedReason: null,
      pausedAt: null,
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      livemode: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await stack.bus.request('webhooks.get', { principal, id: endpoint.id });
    expect(JSON.stringify(read)).not.toContain(signingSecret);
    const rows = await db.query<{ row: string }[]>(`SELECT row_to_json(e)::text AS row FROM "webhooks"."endpoints" e WHERE id = $1`, [
      endpoint.id,
    ]);
    expect(rows[0]!.row).not.toContain(signingSecret.slice('whsec_'.length));
  });

  it.each([
    ['a sandbox key', false],
    ['a live key', true],
  ])('answers every endpoint route of %s with the endpoint in that mode', async (_name, livemode) => {
    const principal = caller({ livemode });
    const created = await create(principal);
    const target = { principal, id: created.endpoint.id };
    const answers = {
      create: created.endpoint,
      list: (await stack.bus.request('webhooks.list', { principal, query: {} })).data[0]!,
      get: await stack.bus.request('webhooks.get', target),
      update: await stack.bus.request('webhooks.update', { ...target, input: { description: 'Renamed' } }),
      pause: await stack.bus.request('webhooks.pause', target),
      resume: await stack.bus.request('webhooks.resume', target),
      rotate: (await stack.bus.request('webhooks.rotate', target)).endpoint,
      delete: await stack.bus.request('webhooks.delete', target),
    };
    const modes = Object.fromEntries(Object.entries(answers).map(([route, endpoint]) => [route, endpoint.livemode]));
    expect(modes).toEqual({
      create: livemode,
      list: livemode,
      get: livemode,
      update: livemode,
      pause: livemode,
      resume: livemode,
      rotate: livemode,
      delete: livemode,
    });
  });

  it('keeps the named event types once each, and refuses an unknown one naming it', async () => {
    const { endpoint } = await create(caller(), { eventTypes: ['signup.created', 'participant.registered', 'signup.created'] });
    expect(endpoint.eventTypes).toEqual(['signup.created', 'participant.registered']);
    const problem = await problemOf(create(caller(), { eventTypes: ['signup.created', 'signup.exploded'] }));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'eventTypes', message: expect.stringContaining('"signup.exploded"') }]);
    const empty = await problemOf(create(caller(), { eventTypes: [] }));
    expect(empty.errors).toEqual([{ path: 'eventTypes', message: 'Must not be empty' }]);
  });

  it('caps endpoints per organization by tier, across both modes, with upgrade_required', async () => {
    const free = caller({ tier: 'free' });
    await create(free);
    const live = { ...free, livemode: true, credentialId: newPrefixedId('key') };
    const problem = await problemOf(create(live, { url: 'https://93.184.215.14/hooks' }));
    expect(problem).toMatchObject({ code: 'upgrade_required', status: 402 });
    expect(problem.problemCause).toEqual({
      kind: 'limit',
      featureLabel: 'Webhook endpoints',
      currentTier: 'free',
      requiredTier: 'pro',
      limit: 1,
      used: 1,
    });
  });

  it('lets exactly the cap through among parallel creations', async () => {
    const free = caller({ tier: 'free' });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => create(free)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as ProblemError).code === 'upgrade_required')).toHaveLength(5);
  });

  it('hides an endpoint from another organization and from the other mode', async () => {
    const owner = caller();
    const { endpoint } = await create(owner);
    expect((await problemOf(stack.bus.request('webhooks.get', { principal: caller(), id: endpoint.id }))).code).toBe('not_found');
    const otherMode = { ...owner, livemode: true };
    expect((await problemOf(stack.bus.request('webhooks.get', { principal: otherMode, id: endpoint.id }))).code).toBe('not_found');
    expect((await problemOf(stack.bus.request('webhooks.delete', { principal: caller(), id: endpoint.id }))).code).toBe('not_found');
  });

  it('lists the newest first, page by page, 20 to a page by default', async () => {
    const principal = caller();
    const made: WebhookEndpointView[] = [];
    for (let i = 0; i < 3; i++) made.push((await create(principal, { description: `#${i}` })).endpoint);
    expect((await stack.bus.request('webhooks.list', { principal, query: {} })).data.map((e) => e.description)).toEqual(['#2', '#1', '#0']);
    const first = await stack.bus.request('webhooks.list', { principal, query: { limit: 2 } });
    expect(first.data.map((e) => e.description)).toEqual(['#2', '#1']);
    const second = await stack.bus.request('webhooks.list', { principal, query: { limit: 2, cursor: first.nextCursor! } });
    expect(second).toEqual({ data: [made[0]], nextCursor: null });
  });

  it.each(MISSHAPEN_CURSORS)('refuses a well-formed cursor holding %s as a 422 on cursor, before any query', async (_case, cursorOf) => {
    const principal = caller();
    await create(principal);
    const cursor = cursorOf({ list: 'webhooks.list', organizationId: principal.organizationId, livemode: principal.livemode });
    const problem = await problemOf(stack.bus.request('webhooks.list', { principal, query: { cursor } }));
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
  });

  it('changes url, description and event types, checking the url again', async () => {
    const principal = caller();
    const { endpoint } = await create(principal);
    const changed = await stack.bus.request('webhooks.update', {
      principal,
      id: endpoint.id,
      input: { description: 'Renamed', eventTypes: ['slot.filled'] },
    });
    expect(changed).toMatchObject({ url: hooks.url(), description: 'Renamed', eventTypes: ['slot.filled'] });
    const problem = await problemOf(
      stack.bus.request('webhooks.update', { principal, id: endpoint.id, input: { url: 'ftp://example.com/x' } }),
    );
    expect(problem.errors).toEqual([{ path: 'url', message: 'url must use http or https' }]);
  });

  it('pauses by hand (idempotently) and resumes with the failure count reset', async () => {
    const principal = caller();
    const { endpoint } = await create(principal);
    await db.query(`UPDATE "webhooks"."endpoints" SET consecutive_failures = 7 WHERE id = $1`, [endpoint.id]);
    const paused = await stack.bus.request('webhooks.pause', { principal, id: endpoint.id });
    expect(paused).toMatchObject({ paused: true, pausedReason: 'manual', pausedAt: expect.any(String), consecutiveFailures: 7 });
    const again = await stack.bus.request('webhooks.pause', { principal, id: endpoint.id });
    expect(again.pausedAt).toBe(paused.pausedAt);
    const resumed = await stack.bus.request('webhooks.resume', { principal, id: endpoint.id });
    expect(resumed).toMatchObject({ paused: false, pausedReason: null, pausedAt: null, consecutiveFailures: 0 });
  });

  it('sends a signed webhook.test that standardwebhooks verifies, and reports the answer', async () => {
    const principal = caller();
    const { endpoint, signingSecret } = await create(principal);
    const before = hooks.received.length;
    const result = await stack.bus.request('webhooks.test', { principal, id: endpoint.id });
    expect(result).toEqual({
      delivered: true,
      responseStatus: 200,
      responseBody: 'answered 200',
      errorMessage: null,
      latencyMs: expect.any(Number),
    });
    const message = hooks.received[before]!;
    expect(message.headers['webhook-id']).toMatch(/^msg_/);
    expect(verifyWebhook(signingSecret, message)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpointId: endpoint.id, organizationId: principal.organizationId, livemode: false },
    });
  });

  it('reports a failing answer without counting it toward pausing, also while paused', async () => {
    const principal = caller();
    const { endpoint } = await create(principal);
    await stack.bus.request('webhooks.pause', { principal, id: endpoint.id });
    await stack.bus.request('webhooks.update', { principal, id: endpoint.id, input: { url: hooks.url('/failing') } });
    hooks.answer('/failing', { status: 500 });
    const result = await stack.bus.request('webhooks.test', { principal, id: endpoint.id });
    expect(result).toMatchObject({ delivered: false, responseStatus: 500, responseBody: 'answered 500', errorMessage: 'HTTP 500' });
    expect(await stack.bus.request('webhooks.get', { principal, id: endpoint.id })).toMatchObject({
      consecutiveFailures: 0,
      lastFailureAt: null,
    });
  });

  it('rotates the secret: both the new and the previous one sign for a day', async () => {
    const principal = caller();
    const { endpoint, signingSecret: previous } = await create(principal);
    const rotated = await stack.bus.request('webhooks.rotate', { principal, id: endpoint.id });
    expect(rotated.signingSecret).not.toBe(previous);
    expect(rotated.endpoint.id).toBe(endpoint.id);
    const before = hooks.received.length;
    await stack.bus.request('webhooks.test', { principal, id: endpoint.id });
    const message = hooks.received[before]!;
    expect(String(message.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(rotated.signingSecret, message)).toMatchObject({ type: 'webhook.test' });
    expect(verifyWebhook(previous, message)).toMatchObject({ type: 'webhook.test' });

    await db.query(`UPDATE "webhooks"."endpoints" SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [
      endpoint.id,
    ]);
    await stack.bus.request('webhooks.test', { principal, id: endpoint.id });
    const later = hooks.received[before + 1]!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verifyWebhook(previous, later)).toThrow();
  });

  it('reports an unreachable endpoint', async () => {
    const principal = caller();
    const { endpoint } = await create(principal, { url: 'http://127.0.0.1:1/hooks' });
    const result = await stack.bus.request('webhooks.test', { principal, id: endpoint.id });
    expect(result).toMatchObject({
      delivered: false,
      responseStatus: null,
      responseBody: null,
      errorMessage: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('deletes an endpoint, answering it as it was', async () => {
    const principal = caller();
    const { endpoint } = await create(principal);
    expect(await stack.bus.request('webhooks.delete', { principal, id: endpoint.id })).toEqual(endpoint);
    expect((await problemOf(stack.bus.request('webhooks.get', { principal, id: endpoint.id }))).code).toBe('not_found');
  });

  it('refuses an OAuth principal even if an edge let it through', async () => {
    const problem = await problemOf(stack.bus.request('webhooks.list', { principal: caller({ kind: 'oauth' }), query: {} }));
    expect(problem.code).toBe('forbidden');
  });

  describe('If-Match on an edit or a deletion', () => {
    const tagOf = async (principal: Principal, id: string) => etagOf(await stack.bus.request('webhooks.get', { principal, id }));

    it('applies an edit with the current tag; its answer is tagged as the next read', async () => {
      const principal = caller();
      const { endpoint } = await create(principal);
      const ifMatch = await tagOf(principal, endpoint.id);
      const edited = await stack.bus.request('webhooks.update', { principal, id: endpoint.id, ifMatch, input: { description: 'Billing' } });
      expect(edited.description).toBe('Billing');
      expect(etagOf(edited)).toBe(await tagOf(principal, endpoint.id));
    });

    it('refuses a stale tag with precondition_failed, changing and deleting nothing', async () => {
      const principal = caller();
      const { endpoint } = await create(principal);
      const stale = await tagOf(principal, endpoint.id);
      await stack.bus.request('webhooks.pause', { principal, id: endpoint.id });
      const before = await stack.bus.request('webhooks.get', { principal, id: endpoint.id });
      for (const write of [
        stack.bus.request('webhooks.update', { principal, id: endpoint.id, ifMatch: stale, input: { description: 'Mine' } }),
        stack.bus.request('webhooks.delete', { principal, id: endpoint.id, ifMatch: stale }),
      ]) {
        expect((await problemOf(write)).code).toBe('precondition_failed');
      }
      expect(await stack.bus.request('webhooks.get', { principal, id: endpoint.id })).toEqual(before);
    });

    it('lets exactly one of parallel edits sent with the same tag apply; the others are precondition_failed', async () => {
      const principal = caller();
      const { endpoint } = await create(principal);
      const ifMatch = await tagOf(principal, endpoint.id);
      const outcomes = await Promise.allSettled(
        ['A', 'B', 'C', 'D'].map((description) =>
          stack.bus.request('webhooks.update', { principal, id: endpoint.id, ifMatch, input: { description } }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect((await problemOf(Promise.reject(outcome.reason))).code).toBe('precondition_failed');
      }
    });

    it("answers not_found for another organization's endpoint, whatever the tag", async () => {
      const { endpoint } = await create(caller());
      expect((await problemOf(stack.bus.request('webhooks.delete', { principal: caller(), id: endpoint.id, ifMatch: '*' }))).code).toBe(
        'not_found',
      );
    });
  });
});

describe('webhook endpoint targets (production: private targets refused)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await createTestStack('webhook_targets', { env: { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') } });
    await stack.boot(webhooksDispatcherApp);
  });

  afterAll(() => stack.close());

  it.each([
    ['a loopback address', 'https://127.0.0.1/hooks', 'url points to a private address (127.0.0.1)'],
    ['a private address', 'https://10.1.2.3/hooks', 'url points to a private address (10.1.2.3)'],
    ['the metadata address', 'https://169.254.169.254/latest', 'url points to a private address (169.254.169.254)'],
    ['localhost', 'https://localhost/hooks', 'url host is not public (localhost)'],
    ['an IPv4-compatible loopback', 'https://[::7f00:1]/hooks', 'url points to a private address (::7f00:1)'],
    ['an IPv4-compatible loopback, dotted', 'https://[::127.0.0.1]/hooks', 'url points to a private address (::7f00:1)'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks', 'url points to a private address (::ffff:7f00:1)'],
    ['a 6to4 address', 'https://[2002:7f00:1::1]/hooks', 'url points to a private address (2002:7f00:1::1)'],
    ['a NAT64 loopback', 'https://[64:ff9b::127.0.0.1]/hooks', 'url points to a private address (64:ff9b::7f00:1)'],
    ['a local-use NAT64 address', 'https://[64:ff9b:1::a00:1]/hooks', 'url points to a private address (64:ff9b:1::a00:1)'],
    ['a Teredo address', 'https://[2001::1]/hooks', 'url points to a private address (2001::1)'],
    ['a site-local address', 'https://[fec0::1]/hooks', 'url points to a private address (fec0::1)'],
    ['a shared (CGNAT) address', 'https://100.64.0.1/hooks', 'url points to a private address (100.64.0.1)'],
    ['a benchmarking address', 'https://198.18.0.1/hooks', 'url points to a private address (198.18.0.1)'],
  ])('refuses %s at creation with 422 on url', async (_name, url, message) => {
    const problem = await problemOf(stack.bus.request('webhooks.create', { principal: caller(), input: { url } }));
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'url', message }]);
  });

  it('refuses a special-purpose IPv6 address when a url is changed', async () => {
    const principal = caller();
    const { endpoint } = await stack.bus.request('webhooks.create', { principal, input: { url: 'http://93.184.215.14/hooks' } });
    const problem = await problemOf(
      stack.bus.request('webhooks.update', { principal, id: endpoint.id, input: { url: 'https://[2002:a00:1::1]/hooks' } }),
    );
    expect(problem.status).toBe(422);
    expect(problem.errors).toEqual([{ path: 'url', message: 'url points to a private address (2002:a00:1::1)' }]);
  });

  it('requires https for a live endpoint and allows http in sandbox', async () => {
    const live = await problemOf(
      stack.bus.request('webhooks.create', { principal: caller({ livemode: true }), input: { url: 'http://93.184.215.14/hooks' } }),
    );
    expect(live.errors).toEqual([{ path: 'url', message: 'url must use https' }]);
    const sandbox = await stack.bus.request('webhooks.create', { principal: caller(), input: { url: 'http://93.184.215.14/hooks' } });
    expect(sandbox.endpoint.url).toBe('http://93.184.215.14/hooks');
  });
});
