import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Principal } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { type AppHarness, caller, problemOf, startApp } from '../testing/fixtures.js';

const live = (overrides: Partial<Principal> = {}): Principal => ({ ...caller({ livemode: true }), tier: 'free', ...overrides });
const DESCRIPTION = 'Potluck next Saturday at 5pm at Riverside Park: we need 2 salads and 3 desserts';

interface FakeOpenAi {
  url: string;
  requests: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  /** What the next answers are: a draft object, a raw chat content string, an HTTP status, or 'hang'. */
  mode: { kind: 'draft'; draft: unknown } | { kind: 'content'; content: string } | { kind: 'status'; status: number } | { kind: 'hang' };
  close(): Promise<void>;
}

/** A fake OpenAI-compatible chat-completions server on 127.0.0.1. */
async function fakeOpenAi(): Promise<FakeOpenAi> {
  const fake = { requests: [], mode: { kind: 'status', status: 500 } } as unknown as FakeOpenAi;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      fake.requests.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
      const mode = fake.mode;
      if (mode.kind === 'hang') return;
      if (mode.kind === 'status')
        return void res.writeHead(mode.status, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
      const content = mode.kind === 'draft' ? JSON.stringify(mode.draft) : mode.content;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The app's ai_drafts_total for a provider and outcome, from its own /metrics. */
async function draftsCounted(app: RunningApp, provider: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('ai_drafts_total{') && l.includes(`provider="${provider}"`) && l.includes(`outcome="${outcome}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const ANSWER = {
  title: 'Potluck',
  description: null,
  eventDate: '2026-11-28T17:00:00.000Z',
  location: 'Riverside Park',
  items: [
    { name: 'Salads', quantityNeeded: 2, notes: null },
    { name: 'Desserts', quantityNeeded: 3, notes: null },
  ],
  slots: [],
};

describe('AI drafts with the offline drafter', () => {
  let harness: AppHarness;

  beforeAll(async () => {
    harness = await startApp('drafts_offline');
  });

  afterAll(() => harness.close());

  // The organization's zone is the auth-server's to tell (e2e/src/drafts.e2e-spec.ts); here each draft names its zone.
  const draft = (principal: Principal, description = DESCRIPTION, timeZone = 'UTC') =>
    harness.stack.bus.request('signups.drafts.create', { principal, input: { description, timeZone } });

  it('answers a draft and creates nothing', async () => {
    const principal = live();
    const { draft: result } = await draft(principal);
    expect(result.title).toEqual(expect.any(String));
    expect(result.items.map((i) => i.name)).toEqual(['Salads', 'Desserts']);
    const [{ count }] = await harness.app.context.dataSource!.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM signups.signups`,
    );
    expect(count).toBe(0);
  });

  it('reads the written times in the zone asked for, and the draft carries that zone', async () => {
    const principal = live();
    const text = 'Potluck on December 5, 2026 at 5pm: slots 5pm-7pm';
    const { draft: ny } = await draft(principal, text, 'America/New_York');
    expect(ny).toMatchObject({ eventDate: '2026-12-05T22:00:00.000Z', timeZone: 'America/New_York' });
    expect(ny.slots[0]).toMatchObject({ startTime: '2026-12-05T22:00:00.000Z', endTime: '2026-12-06T00:00:00.000Z' });
    const { draft: kolkata } = await draft(caller(), text, 'Asia/Calcutta');
    expect(kolkata).toMatchObject({ eventDate: '2026-12-05T11:30:00.000Z', timeZone: 'Asia/Calcutta' });
  });

  it('refuses a zone that is an offset with 422 on timeZone, using no draft', async () => {
    const principal = live();
    const problem = await problemOf(draft(principal, DESCRIPTION, '+05:30'));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'timeZone', message: expect.stringMatching(/^Unknown time zone/) }]);
    for (let i = 0; i < 3; i++) await draft(principal);
  });

  it("cannot draft without a zone while the auth-server, which knows the organization's, does not answer", async () => {
    const problem = await problemOf(
      harness.stack.bus.request('signups.drafts.create', { principal: live(), input: { description: DESCRIPTION } }),
    );
    expect(problem.code).toBe('internal_error');
  });

  it('uses the monthly quota of the tier and then answers 402 upgrade_required (kind quota)', async () => {
    const principal = live();
    for (let i = 0; i < 3; i++) await draft(principal);
    const problem = await problemOf(draft(principal));
    expect(problem).toMatchObject({ code: 'upgrade_required', status: 402 });
    expect(problem.problemCause).toEqual({
      kind: 'quota',
      featureLabel: 'AI drafts',
      currentTier: 'free',
      requiredTier: 'pro',
      limit: 3,
      used: 3,
    });
  });

  it('lets exactly the quota through among parallel calls', async () => {
    const principal = live();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => draft(principal)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
  });

  it('uses no quota in sandbox', async () => {
    const sandbox = caller({ livemode: false });
    for (let i = 0; i < 5; i++) await draft({ ...sandbox, tier: 'free' });
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n\t'],
  ])('refuses an %s description with 422 on description', async (_name, description) => {
    const problem = await problemOf(draft(live(), description));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'description', message: 'Must not be empty' }]);
  });

  it('requires the ai:draft scope', async () => {
    const problem = await problemOf(draft({ ...live(), scopes: ['signups:read'] }));
    expect(problem.code).toBe('scope_required');
  });
});

describe('AI drafts with an OpenAI-compatible provider', () => {
  let harness: AppHarness;
  let openai: FakeOpenAi;

  beforeAll(async () => {
    openai = await fakeOpenAi();
    harness = await startApp('drafts_openai', {
      env: {
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: 'sk-test-key',
        AI_MODEL: 'draft-model',
        AI_TIMEOUT_MS: '500',
      },
    });
  });

  afterAll(async () => {
    await harness.close();
    await openai.close();
  });

  const draft = (principal: Principal) =>
    harness.stack.bus.request('signups.drafts.create', { principal, input: { description: DESCRIPTION, timeZone: 'America/Chicago' } });
  const used = async (principal: Principal) =>
    (
      await harness.app.context.dataSource!.query<{ count: number }[]>(
        `SELECT count FROM signups.ai_draft_usage WHERE organization_id = $1`,
        [principal.organizationId],
      )
    )[0]?.count ?? 0;

  it('asks with the model, the key, the description and a strict JSON schema, and answers the validated draft', async () => {
    openai.mode = { kind: 'draft', draft: ANSWER };
    const principal = live();
    const { draft: result } = await draft(principal);
    expect(result).toEqual({
      title: 'Potluck',
      eventDate: '2026-11-28T17:00:00.000Z',
      location: 'Riverside Park',
      items: [
        { name: 'Salads', quantityNeeded: 2 },
        { name: 'Desserts', quantityNeeded: 3 },
      ],
      slots: [],
      timeZone: 'America/Chicago',
    });
    const request = openai.requests.at(-1)!;
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(request.body).toMatchObject({ model: 'draft-model', response_format: { type: 'json_schema', json_schema: { strict: true } } });
    expect(JSON.stringify(request.body.messages)).toContain(DESCRIPTION);
    expect(JSON.stringify(request.body.messages)).toContain('Time zone: America/Chicago');
    expect(await used(principal)).toBe(1);
  });

  it.each([
    ['an error status', { kind: 'status', status: 500 } as const, 502],
    ['an answer that is not JSON', { kind: 'content', content: 'Sure! Here is your potluck.' } as const, 502],
    ['a draft that fails validation', { kind: 'draft', draft: { ...ANSWER, title: '', items: 'salads' } } as const, 502],
    ['no answer in time', { kind: 'hang' } as const, 504],
  ])('answers upstream_unavailable on %s and uses no quota', async (_name, mode, status) => {
    openai.mode = mode;
    const principal = live();
    const problem = await problemOf(draft(principal));
    expect(problem).toMatchObject({ code: 'upstream_unavailable', status });
    expect(await used(principal)).toBe(0);
  });

  it('counts each draft request in ai_drafts_total by the drafter that ran and its outcome', async () => {
    const counted = async () => ({
      drafted: await draftsCounted(harness.app, 'openai', 'drafted'),
      unavailable: await draftsCounted(harness.app, 'openai', 'unavailable'),
      offline: await draftsCounted(harness.app, 'offline', 'drafted'),
    });
    const before = await counted();
    openai.mode = { kind: 'draft', draft: ANSWER };
    await draft(live());
    openai.mode = { kind: 'status', status: 500 };
    await problemOf(draft(live()));
    await draft(caller({ livemode: false }));
    const after = await counted();
    expect({
      drafted: after.drafted - before.drafted,
      unavailable: after.unavailable - before.unavailable,
      offline: after.offline - before.offline,
    }).toEqual({ drafted: 1, unavailable: 1, offline: 1 });
  });

  it('drafts sandbox calls offline, without the provider', async () => {
    openai.mode = { kind: 'status', status: 500 };
    const before = openai.requests.length;
    const { draft: result } = await draft(caller({ livemode: false }));
    expect(result.items.map((i) => i.name)).toEqual(['Salads', 'Desserts']);
    expect(openai.requests).toHaveLength(before);
  });
});
