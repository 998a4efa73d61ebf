import { encodeCursor, type EventLogEntryView, newId, type SignupView, type WebhookWithSecretView } from '#libs/contracts';
import { eventually, type Receiver, startReceiver } from '#libs/testing';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';

interface LogPage {
  data: EventLogEntryView[];
  nextCursor: string | null;
}

const RETENTION_MS = 720 * 3600 * 1000;

/**
 * Every event after `after` (oldest first, or from the oldest kept), page by page, as a sync reader
 * reads them: with the cursor alone, or (`repeat`) with the first query repeated next to it, as a
 * generic pager does.
 */
async function readAfter(key: string, after: string | undefined, repeat = false): Promise<EventLogEntryView[]> {
  const entries: EventLogEntryView[] = [];
  const first = after ? `/events?after=${after}&limit=2` : '/events?order=asc&limit=2';
  let page = await call<LogPage>(first, { key });
  entries.push(...page.body.data);
  while (page.body.nextCursor) {
    page = await call<LogPage>(repeat ? `${first}&cursor=${page.body.nextCursor}` : `/events?cursor=${page.body.nextCursor}`, { key });
    expect(page.status).toBe(200);
    entries.push(...page.body.data);
  }
  return entries;
}

/** The newest event id in the caller's log, once it holds an event of this type about this id. */
async function newestOnceLogged(key: string, type: string, id: string): Promise<string> {
  return eventually(async () => {
    const page = await call<LogPage>('/events', { key });
    expect(page.body.data.some((entry) => entry.type === type && entry.data.id === id)).toBe(true);
    return page.body.data[0]!.id;
  }, 15_000);
}

describe('the event log over REST', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  it("gives each event the id its webhook deliveries carry as webhook-id, with the delivered body, and keeps each mode's apart", async () => {
    const tenant = await newTenant();
    const path = `/log-${newId()}`;
    const hook = await call<WebhookWithSecretView>('/webhooks', { key: tenant.key, body: { url: receiver.url(path) } });
    expect(hook.status).toBe(200);
    const { signup } = await newSignup(tenant.key, { publish: false });
    const delivery = await eventually(() => {
      const found = receiver.received.find((r) => r.path === path && r.body.includes(signup.id));
      expect(found).toBeDefined();
      return found!;
    }, 15_000);
    await newestOnceLogged(tenant.key, 'signup.created', signup.id);
    const log = await call<LogPage>('/events', { key: tenant.key });
    expect(log.status).toBe(200);
    expect(log.headers.get('cache-control')).toBe('no-store');
    const entry = log.body.data.find((e) => e.id === delivery.headers['webhook-id']);
    expect(entry).toEqual({ id: delivery.headers['webhook-id'], ...(JSON.parse(delivery.body) as object) });
    expect(entry).toMatchObject({
      type: 'signup.created',
      data: { id: signup.id, organizationId: tenant.organization.id, livemode: false },
    });

    const live = await tenant.newKey({ mode: 'live' });
    expect((await call<LogPage>('/events', { key: live.key })).body).toEqual({ data: [], nextCursor: null });
  });

  it('lets a sync reader list once, then learn every change, deletions included, from the log after its mark', async () => {
    const { key } = await newTenant();
    const kept = (await newSignup(key, { publish: false })).signup;
    const gone = (await newSignup(key, { publish: false })).signup;
    // 1. The mark: the newest event id, read before listing (a change made meanwhile is read twice, never missed).
    await newestOnceLogged(key, 'signup.created', kept.id);
    let mark = await newestOnceLogged(key, 'signup.created', gone.id);
    // 2. The full list.
    const copy = new Map((await call<{ data: SignupView[] }>('/signups', { key })).body.data.map((s) => [s.id, s]));
    expect([...copy.keys()].sort()).toEqual([kept.id, gone.id].sort());

    // Changes while the reader is away.
    const since = new Date().toISOString();
    expect((await call(`/signups/${gone.id}`, { key, method: 'DELETE' })).status).toBe(204);
    const renamed = await call<SignupView>(`/signups/${kept.id}`, { key, method: 'PATCH', body: { title: 'Renamed' } });
    expect(renamed.status).toBe(200);

    // 3. The log after the mark, applied in order.
    const changes = await eventually(async () => {
      const entries = await readAfter(key, mark);
      expect(entries.map((e) => e.type)).toEqual(['signup.deleted', 'signup.updated']);
      return entries;
    }, 15_000);
    for (const entry of changes) {
      const signup = entry.data as unknown as SignupView;
      if (entry.type === 'signup.deleted') copy.delete(signup.id);
      else copy.set(signup.id, signup);
      mark = entry.id;
    }
    expect([...copy.keys()]).toEqual([kept.id]);
    expect(copy.get(kept.id)).toMatchObject({ title: 'Renamed' });
    expect(await readAfter(key, mark)).toEqual([]);

    // updated_since lists what changed, never what was deleted.
    const changed = await call<{ data: SignupView[] }>(`/signups?updated_since=${encodeURIComponent(since)}`, { key });
    expect(changed.body.data.map((s) => s.id)).toEqual([kept.id]);
  });

  it('reads a participant list changed since a time, and a cancellation from the log', async () => {
    const { key } = await newTenant();
    const { signup } = await newSignup(key);
    const newest = async () => (await call<{ data: { id: string }[] }>(`/signups/${signup.id}/participants`, { key })).body.data[0]!.id;
    expect((await call(`/signups/${signup.id}/participants`, { body: person() })).status).toBe(201);
    const first = await newest();
    const mark = await newestOnceLogged(key, 'participant.registered', first);
    const since = new Date().toISOString();
    expect((await call(`/signups/${signup.id}/participants`, { body: person() })).status).toBe(201);
    const second = await newest();
    expect((await call(`/signups/${signup.id}/participants/${first}`, { key, method: 'DELETE' })).status).toBe(200);
    const changed = await call<{ data: { id: string }[] }>(
      `/signups/${signup.id}/participants?updated_since=${encodeURIComponent(since)}`,
      {
        key,
      },
    );
    expect(changed.body.data.map((p) => p.id)).toEqual([second]);
    await eventually(async () => {
      const entries = await readAfter(key, mark);
      expect(entries.filter((e) => e.type === 'participant.canceled').map((e) => e.data.id)).toEqual([first]);
    }, 15_000);
  });

  it('pages after an event id over several pages with after repeated next to the cursor, as a generic pager sends it', async () => {
    const { key } = await newTenant();
    const first = (await newSignup(key, { publish: false })).signup;
    const mark = await newestOnceLogged(key, 'signup.created', first.id);
    const later: string[] = [];
    for (let i = 0; i < 5; i += 1) later.push((await newSignup(key, { publish: false })).signup.id);
    await newestOnceLogged(key, 'signup.created', later[4]!);
    // The log keeps the order the events were recorded in, which concurrent deliveries need not keep: compare as sets.
    const created = (entries: EventLogEntryView[]) =>
      entries
        .filter((e) => e.type === 'signup.created')
        .map((e) => e.data.id as string)
        .sort();
    const read = await readAfter(key, mark, true);
    expect(read.length).toBeGreaterThan(2);
    expect(created(read)).toEqual([...later].sort());
    expect(read).toEqual(await readAfter(key, mark));
    expect(created(await readAfter(key, undefined, true))).toEqual([first.id, ...later].sort());
  });

  describe('refuses', () => {
    let tenant: Tenant;
    let logCursor: string;

    beforeAll(async () => {
      tenant = await newTenant();
      const { signup } = await newSignup(tenant.key, { publish: false });
      await call(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: { title: 'Twice' } });
      await newestOnceLogged(tenant.key, 'signup.updated', signup.id);
      logCursor = (await call<LogPage>('/events?limit=1', { key: tenant.key })).body.nextCursor!;
      expect(logCursor).toEqual(expect.any(String));
    });

    const problem = async (path: string, key: string) => {
      const res = await call<{ code: string; status: number; type: string; errors?: { path: string; message: string }[] }>(path, { key });
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      return res.body;
    };

    it('a cursor of another organization, mode or list, as 422 on cursor, and an event id of another organization as 422 on after', async () => {
      const other = await newTenant();
      const live = await tenant.newKey({ mode: 'live' });
      await newSignup(tenant.key, { publish: false });
      const { signup: last } = await newSignup(tenant.key, { publish: false });
      const signupsCursor = (await call<{ nextCursor: string }>('/signups?limit=1', { key: tenant.key })).body.nextCursor;
      const refusals = [
        [`/events?cursor=${logCursor}`, other.key],
        [`/events?cursor=${logCursor}`, live.key],
        [`/events?cursor=${logCursor}&type=signup.deleted`, tenant.key],
        [`/signups?cursor=${logCursor}`, tenant.key],
        [`/webhooks?cursor=${logCursor}`, tenant.key],
        [`/events?cursor=${signupsCursor}`, tenant.key],
        [`/signups?cursor=${signupsCursor}`, other.key],
        [`/signups?cursor=${signupsCursor}&status=draft`, tenant.key],
      ] as const;
      for (const [path, key] of refusals)
        expect({ path, body: await problem(path, key) }).toMatchObject({
          path,
          body: { code: 'validation_failed', status: 422, errors: [{ path: 'cursor', message: expect.stringContaining('another list') }] },
        });
      await newestOnceLogged(tenant.key, 'signup.created', last.id);
      const log = (await call<LogPage>('/events', { key: tenant.key })).body.data;
      const [own, oldest] = [log[0], log[log.length - 1]];
      const afterCursor = (await call<LogPage>(`/events?after=${oldest!.id}&limit=1`, { key: tenant.key })).body.nextCursor;
      expect(afterCursor).toEqual(expect.any(String));
      for (const path of [`/events?after=${own!.id}&cursor=${afterCursor}`, `/events?order=desc&cursor=${afterCursor}`])
        expect(await problem(path, tenant.key)).toMatchObject({
          code: 'validation_failed',
          errors: [{ path: 'cursor', message: expect.stringContaining('another list') }],
        });
      expect(await problem(`/events?after=${own!.id}`, other.key)).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'after' }],
      });
    });

    it('a malformed cursor, updated_since in the future or unparseable, and an unknown type, as 422 on each', async () => {
      const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
      // Of this tenant's log, with a position beyond what Postgres holds (bigint, xid8): refused before any query.
      const beyond = (tx: string, seq: string) =>
        encodeCursor(
          { d: 'asc', tx, seq, at: new Date().toISOString() },
          { list: 'webhooks.events.list', organizationId: tenant.organization.id, livemode: false },
        );
      const cases = [
        ['/events?cursor=%25%25%25', 'cursor'],
        [`/events?cursor=${beyond('1', '9223372036854775808')}`, 'cursor'],
        [`/events?cursor=${beyond('18446744073709551616', '1')}`, 'cursor'],
        ['/events?type=signup.exploded', 'type'],
        [`/signups?updated_since=${future}`, 'updated_since'],
        ['/signups?updated_since=last%20week', 'updated_since'],
        [`/events?created_gte=${future}`, 'created_gte'],
      ] as const;
      for (const [path, field] of cases)
        expect(await problem(path, tenant.key)).toMatchObject({
          code: 'validation_failed',
          errors: [expect.objectContaining({ path: field })],
        });
      const { signup } = await newSignup(tenant.key, { publish: false });
      expect(await problem(`/signups/${signup.id}/participants?updated_since=${future}`, tenant.key)).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'updated_since' }],
      });
    });

    it('a key without participants:read, as 403 scope_required', async () => {
      const narrow = await tenant.newKey({ scopes: 'signups:read signups:write' });
      const res = await call<{ code: string; detail: string }>('/events', { key: narrow.key });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'scope_required', detail: 'This operation requires the scope "participants:read".' });
      expect((await call<LogPage>('/events', { key: (await tenant.newKey({ scopes: 'participants:read' })).key })).status).toBe(200);
    });

    it('a cursor or event id older than the log keeps, as 410 cursor_expired', async () => {
      const old = new Date(Date.now() - RETENTION_MS - 3_600_000);
      const expired = encodeCursor(
        { d: 'asc', tx: '1', seq: '1', at: old.toISOString() },
        { list: 'webhooks.events.list', organizationId: tenant.organization.id, livemode: false },
      );
      const hex = old.getTime().toString(16).padStart(12, '0') + newId().replaceAll('-', '').slice(12);
      const oldId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      for (const path of [`/events?cursor=${expired}`, `/events?after=${oldId}`])
        expect(await problem(path, tenant.key)).toMatchObject({
          code: 'cursor_expired',
          status: 410,
          type: expect.stringMatching(/\/cursor-expired$/),
        });
    });
  });
});
