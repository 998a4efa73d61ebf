import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/** A signup duplicated into a series over REST and MCP, then published and closed as one. */
describe('series', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  const duplicate = (id: string, body: Record<string, unknown>, key = tenant.key) =>
    call<{ data: SignupView[] }>(`/signups/${id}/duplicate`, { key, body });
  const act = (seriesId: string, action: 'publish' | 'close', key = tenant.key) =>
    call<{ data: SignupView[] }>(`/series/${seriesId}/${action}`, { key, method: 'POST' });

  it('duplicates a signup at given dates as drafts with its slots, moved with the event, in one series', async () => {
    const { signup, slots } = await newSignup(tenant.key, {
      fields: { eventDate: '2027-06-01T18:00:00.000Z', timeZone: 'Europe/Paris', location: 'Town hall' },
      slots: [{ title: 'Setup', startTime: '2027-06-01T17:00:00.000Z', endTime: '2027-06-01T18:00:00.000Z', capacity: 4 }],
    });
    const res = await duplicate(signup.id, { eventDates: ['2027-06-15T18:00:00Z', '2027-06-08T18:00:00Z'] });
    expect(res.status).toBe(201);
    expect(res.body.data.map((s) => [s.eventDate, s.status, s.location, s.timeZone])).toEqual([
      ['2027-06-08T18:00:00.000Z', 'draft', 'Town hall', 'Europe/Paris'],
      ['2027-06-15T18:00:00.000Z', 'draft', 'Town hall', 'Europe/Paris'],
    ]);
    const seriesId = res.body.data[0]!.seriesId;
    expect(seriesId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call<SignupView>(`/signups/${signup.id}`, { key: tenant.key })).body.seriesId).toBe(seriesId);
    const copy = (await call<SignupView>(`/signups/${res.body.data[0]!.id}`, { key: tenant.key })).body;
    expect(copy.slots).toEqual([
      expect.objectContaining({ title: 'Setup', startTime: '2027-06-08T17:00:00.000Z', endTime: '2027-06-08T18:00:00.000Z', capacity: 4 }),
    ]);
    expect(copy.slots![0]!.id).not.toBe(slots[0]!.id);
    const listed = await call<{ data: SignupView[] }>(`/signups?seriesId=${seriesId}`, { key: tenant.key });
    expect(listed.body.data.map((s) => s.id).sort()).toEqual([signup.id, ...res.body.data.map((s) => s.id)].sort());
  });

  it('duplicates with a weekly recurrence at the same wall-clock time across daylight saving time, then publishes and closes the series', async () => {
    // 18:00 in New York on Thursday 21 October 2027 (EDT); clocks fall back on 7 November.
    const { signup } = await newSignup(tenant.key, { fields: { eventDate: '2027-10-21T22:00:00Z', timeZone: 'America/New_York' } });
    const res = await duplicate(signup.id, { recurrence: { frequency: 'weekly', until: '2027-11-12T00:00:00Z' } });
    expect(res.status).toBe(201);
    expect(res.body.data.map((s) => s.eventDate)).toEqual([
      '2027-10-28T22:00:00.000Z',
      '2027-11-04T22:00:00.000Z',
      '2027-11-11T23:00:00.000Z',
    ]);
    const seriesId = res.body.data[0]!.seriesId!;

    const published = await act(seriesId, 'publish');
    expect(published.status).toBe(200);
    expect(published.body.data.map((s) => [s.id, s.status])).toEqual(res.body.data.map((s) => [s.id, 'published']));
    const closed = await act(seriesId, 'close');
    expect(closed.status).toBe(200);
    expect(closed.body.data.map((s) => s.id)).toEqual([signup.id, ...res.body.data.map((s) => s.id)]);
    expect(closed.body.data.every((s) => s.status === 'closed')).toBe(true);
  });

  it('refuses more than 52 copies, dates in the past and bodies with none or several ways of giving dates: 422 on the field', async () => {
    const { signup } = await newSignup(tenant.key);
    const cases: [Record<string, unknown>, string][] = [
      [{ recurrence: { frequency: 'daily', count: 53 } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily', until: '2030-01-01T00:00:00Z' } }, 'recurrence.until'],
      [{ eventDate: '2020-01-01T00:00:00Z' }, 'eventDate'],
      [{}, 'eventDate'],
      [{ eventDate: '2027-07-01T18:00:00Z', recurrence: { frequency: 'weekly', count: 2 } }, 'recurrence'],
    ];
    for (const [body, path] of cases) {
      const res = await duplicate(signup.id, body);
      expect(res.status).toBe(422);
      expect((res.body as unknown as ProblemBody).errors?.map((e) => e.path)).toContain(path);
    }
    expect((await call<SignupView>(`/signups/${signup.id}`, { key: tenant.key })).body.seriesId).toBeNull();
  });

  it("answers 403 for another organization's published signup and 404 for its series", async () => {
    const other = await newTenant('pro');
    const { signup } = await newSignup(tenant.key);
    const [copy] = (await duplicate(signup.id, { eventDate: '2027-07-01T18:00:00Z' })).body.data;
    expect((await duplicate(signup.id, { eventDate: '2027-07-02T18:00:00Z' }, other.key)).status).toBe(403);
    expect((await act(copy!.seriesId!, 'publish', other.key)).status).toBe(404);
    expect((await act(copy!.seriesId!, 'close', other.key)).status).toBe(404);
  });

  it('duplicates and publishes a series over MCP', async () => {
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stackInfo().mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${tenant.key}` } },
      }),
    );
    try {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const duplicated = (await client.callTool({
        name: 'duplicate_signup',
        arguments: { signupId: signup.id, recurrence: { frequency: 'monthly', count: 2 } },
      })) as ToolResult;
      expect(duplicated.isError).toBeFalsy();
      const copies = (duplicated.structuredContent as { data: SignupView[] }).data;
      expect(copies.map((s) => s.eventDate)).toEqual(['2027-07-01T18:00:00.000Z', '2027-08-01T18:00:00.000Z']);
      const published = (await client.callTool({ name: 'publish_series', arguments: { seriesId: copies[0]!.seriesId } })) as ToolResult;
      expect((published.structuredContent as { data: SignupView[] }).data.map((s) => s.id)).toEqual([
        signup.id,
        ...copies.map((s) => s.id),
      ]);
      const refused = (await client.callTool({ name: 'duplicate_signup', arguments: { signupId: signup.id } })) as ToolResult;
      expect(refused.structuredContent).toMatchObject({ code: 'validation_failed', errors: [{ path: 'eventDate' }] });
    } finally {
      await client.close();
    }
  });
});
