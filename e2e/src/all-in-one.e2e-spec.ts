import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ParticipantView, RegistrationResultView, RegistrationView, ReminderPassView, SignupView, SlotView } from '#libs/contracts';
import { eventually, launchChromium, localStack, RELAXED_LIMITS_ENV } from '#libs/testing';
import { request } from './support/api.js';
import { DashboardStory } from './support/dashboard-story.js';
import { DEVICE_GRANT } from './support/oauth.js';
import { copyOf, listed, MemoryStore } from './support/sync-store.js';

interface Started {
  child: ChildProcess;
  output: string;
  /** What the process wrote to stderr up to its banner: a newcomer's first start shows no warning. */
  stderr: string;
}

/**
 * Runs `npm start` (build, then all six apps in one process on embedded adapters) and waits for
 * its banner. The child is npm's own process group leader so stopping it stops the app too.
 */
function start(env: Record<string, string>): Promise<Started> {
  const { DATABASE_URL: _db, NATS_URL: _nats, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn('npm', ['start', '--silent'], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`all-in-one did not start:\n${output}`)), 90_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Try it:')) {
        clearTimeout(timer);
        resolve({ child, output, stderr });
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      collect(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`all-in-one exited with ${code}:\n${output}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

describe('npm start (all-in-one)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signup-aio-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("boots every app in one process, prints a sandbox key that works on REST and MCP, keeps data across restarts, takes a participant through a question, a waitlist offer, a check-in, an export, a series, a conditional edit, a list of what changed and their calendar files, mails a participant its confirmation, an email reminder and a change, and a new account its verification link, to the mailbox, and runs the organizer's story in the dashboard", async () => {
    const stack = await localStack();
    // Relaxed limits: the test calls from one address, often anonymously, far more than a person would.
    const env = { ...stack.env, ...RELAXED_LIMITS_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const base = stack.env.PUBLIC_BASE_URL!;
    const gatewayOrigin = stack.origins['api-gateway'];
    const first = await start(env);
    try {
      const key = /Sandbox API key\s+(sgn_test_[0-9A-Za-z]{32})/.exec(first.output)?.[1];
      expect(key).toBeDefined();
      expect(first.stderr).toBe('');
      expect(first.output).toContain('tier pro');
      expect(first.output).toMatch(/Mailbox\s+http:\/\/\S+\/mailbox\s/);
      expect((await request(`${gatewayOrigin}/healthz`)).status).toBe(200);
      // Every listener of the process has the HTTP timeouts, and announces its keep-alive one.
      for (const origin of Object.values(stack.origins))
        expect((await fetch(`${origin}/healthz`)).headers.get('keep-alive')).toBe('timeout=65');
      const me = await request<{ organization: { tier: string } }>(`${base}/me`, { key });
      expect(me.status).toBe(200);
      expect(me.body.organization.tier).toBe('pro');
      const created = await request<{ id: string; status: string }>(`${base}/signups`, {
        key,
        body: { title: 'Smoke', eventDate: '2027-01-01T10:00:00Z' },
      });
      expect(created.status).toBe(201);
      expect(created.body.status).toBe('draft');
      const tool = await request<{ result: { structuredContent: { data: { title: string }[] } } }>(stack.env.MCP_URL!, {
        key,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_signups', arguments: {} } },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(tool.status).toBe(200);
      expect(tool.body.result.structuredContent.data.map((s) => s.title)).toEqual(['Smoke']);
      const authUrl = stack.env.AUTH_URL!;
      const registered = await request<{ client_id: string }>(`${authUrl}/oauth/register`, {
        body: {
          client_name: 'Smoke CLI',
          grant_types: [DEVICE_GRANT],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: 'none',
          scope: 'signups:read',
        },
      });
      expect(registered.status).toBe(201);
      const device = await request<{ device_code: string }>(`${authUrl}/oauth/device_authorization`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: registered.body.client_id, scope: 'signups:read' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(device.status).toBe(200);
      expect(device.body.device_code).toMatch(/^dc_/);
    } finally {
      await stop(first.child);
    }

    const second = await start(env);
    try {
      const key = /Sandbox API key\s+(sgn_test_[0-9A-Za-z]{32})/.exec(second.output)?.[1];
      const list = await request<{ data: { title: string }[] }>(`${base}/signups`, { key });
      expect(list.body.data.map((s) => s.title)).toEqual(['Smoke']);
      // The event log on the embedded database: the first run's signup.created, kept across the restart.
      await eventually(async () => {
        const log = await request<{ data: { type: string; data: { title?: string } }[] }>(`${base}/events?type=signup.created`, { key });
        expect(log.body.data.map((entry) => entry.data.title)).toEqual(['Smoke']);
      }, 15_000);

      // The participant lifecycle on the embedded database: a required question, a registration past a full slot waiting in
      // its line, a cancellation that offers the place, its acceptance, and a check-in.
      const shift = await request<SignupView>(`${base}/signups`, {
        key,
        body: {
          title: 'Shift',
          eventDate: '2027-01-02T10:00:00Z',
          waitlist: { enabled: true, mode: 'offer' },
          questions: [{ type: 'yes_no', label: 'Vegetarian?', required: true }],
        },
      });
      const question = shift.body.questions[0]!.id;
      const slot = await request<SlotView>(`${base}/signups/${shift.body.id}/slots`, { key, body: { title: 'Door', capacity: 1 } });
      expect((await request(`${base}/signups/${shift.body.id}/publish`, { key, method: 'POST' })).status).toBe(200);
      const register = (email: string, answers: Record<string, boolean> = { [question]: true }) =>
        request<RegistrationResultView>(`${base}/signups/${shift.body.id}/participants`, {
          body: { name: email, email, selections: [{ type: 'slot', id: slot.body.id }], answers },
        });
      expect((await register('unanswered@example.com', {})).status).toBe(422);
      const holder = await register('first@example.com');
      const waiting = await register('second@example.com');
      expect(waiting.status).toBe(201);
      expect(waiting.body.waitlisted).toEqual([{ type: 'slot', id: slot.body.id, participantId: expect.any(String), position: 1 }]);
      const line = await request<{ data: { email: string; position: number }[] }>(`${base}/signups/${shift.body.id}/waitlist`, { key });
      expect(line.body.data.map((e) => [e.email, e.position])).toEqual([['second@example.com', 1]]);
      expect((await request(`${base}/registrations/${holder.body.confirmationToken}`, { method: 'DELETE' })).status).toBe(200);
      const offered = await request<RegistrationView>(`${base}/registrations/${waiting.body.confirmationToken}`);
      expect(offered.body.participant).toMatchObject({ status: 'offered', answers: { [question]: true } });
      const entry = offered.body.participant.waitlist[0]!.id;
      const accepted = await request<RegistrationView>(`${base}/registrations/${waiting.body.confirmationToken}/waitlist/${entry}/accept`, {
        method: 'POST',
      });
      expect(accepted.body.participant).toMatchObject({ status: 'confirmed', selections: [{ id: slot.body.id }], waitlist: [] });
      const participantId = accepted.body.participant.id;
      const checkIn = `${base}/signups/${shift.body.id}/participants/${participantId}/check-in`;
      expect((await request<ParticipantView>(checkIn, { key, method: 'POST' })).body.status).toBe('attended');
      const attendance = await request<{ attended: number }>(`${base}/signups/${shift.body.id}/attendance`, { key });
      expect(attendance.body.attended).toBe(1);

      // The organizer exports the participants, streamed from the embedded database.
      const csv = await fetch(`${base}/signups/${shift.body.id}/participants/export.csv`, { headers: { authorization: `Bearer ${key}` } });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const rows = (await csv.text()).trim().split('\r\n');
      expect(rows).toHaveLength(3);
      expect(rows.find((row) => row.includes('second@example.com'))).toContain('attended');

      // The shift is copied to the next two weeks, and the copies are published as one series.
      const copies = await request<{ data: SignupView[] }>(`${base}/signups/${shift.body.id}/duplicate`, {
        key,
        body: { eventDates: ['2027-01-09T10:00:00Z', '2027-01-16T10:00:00Z'] },
      });
      expect(copies.status).toBe(201);
      expect(copies.body.data.map((copy) => [copy.eventDate, copy.status])).toEqual([
        ['2027-01-09T10:00:00.000Z', 'draft'],
        ['2027-01-16T10:00:00.000Z', 'draft'],
      ]);
      const copy = await request<SignupView>(`${base}/signups/${copies.body.data[0]!.id}`, { key });
      expect(copy.body.slots?.map((s) => s.title)).toEqual(['Door']);
      const series = await request<{ data: SignupView[] }>(`${base}/series/${copies.body.data[0]!.seriesId}/publish`, {
        key,
        method: 'POST',
      });
      expect(series.status).toBe(200);
      expect(series.body.data.map((copy) => [copy.id, copy.status])).toEqual(copies.body.data.map((copy) => [copy.id, 'published']));

      // Conditional requests: a read answers an ETag, which reads again as 304 and guards a write; a stale one is 412.
      const copyUrl = `${base}/signups/${copies.body.data[1]!.id}`;
      const read = await fetch(copyUrl, { headers: { authorization: `Bearer ${key}` } });
      const etag = read.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect((await fetch(copyUrl, { headers: { authorization: `Bearer ${key}`, 'if-none-match': etag } })).status).toBe(304);
      const edit = (title: string) =>
        request<SignupView>(copyUrl, { key, method: 'PATCH', body: { title }, headers: { 'if-match': etag } });
      const beforeEdit = new Date().toISOString();
      expect((await edit('Shift, week 3')).status).toBe(200);
      const changed = await request<{ data: SignupView[] }>(`${base}/signups?updated_since=${beforeEdit}`, { key });
      expect(changed.body.data.map((signup) => signup.title)).toEqual(['Shift, week 3']);
      expect(changed.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      const stale = await edit('Shift, week three');
      expect([stale.status, stale.body]).toEqual([412, expect.objectContaining({ code: 'precondition_failed' })]);

      // Calendar files: the signup's slot, the participant's own (at its read-only address), and the organization's feed.
      const host = new URL(base).hostname;
      const ics = async (url: string) => {
        const res = await fetch(url);
        expect({ url, status: res.status, type: res.headers.get('content-type') }).toEqual({
          url,
          status: 200,
          type: 'text/calendar; charset=utf-8',
        });
        // Unfolded: long lines are folded at 75 octets.
        return (await res.text()).replace(/\r\n[ \t]/g, '');
      };
      expect(await ics(`${gatewayOrigin}/s/${shift.body.slug}/calendar.ics`)).toContain(`UID:slot-${slot.body.id}@${host}`);
      expect(await ics(accepted.body.calendarUrl)).toContain(`UID:participant-${participantId}-slot-${slot.body.id}@${host}`);
      const feed = await request<{ url: string }>(`${base}/calendar-feed`, { key, method: 'POST' });
      expect(feed.status).toBe(201);
      expect(await ics(feed.body.url)).toContain(`UID:slot-${slot.body.id}@${host}`);

      // A participant's confirmation and an email reminder pass land in the mailbox (the mail consumer and the pass run in this process).
      const potluck = await request<SignupView>(`${base}/signups`, { key, body: { title: 'Potluck', eventDate: '2027-01-03T18:00:00Z' } });
      expect((await request(`${base}/signups/${potluck.body.id}/publish`, { key, method: 'POST' })).status).toBe(200);
      const cook = { name: 'Cook', email: 'cook@example.com', selections: [] };
      expect((await request(`${base}/signups/${potluck.body.id}/participants`, { body: cook })).status).toBe(201);
      const reminded = await request<ReminderPassView>(`${base}/signups/${potluck.body.id}/reminders/send`, {
        key,
        body: { channel: 'email' },
      });
      expect(reminded.body).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
      await eventually(async () => {
        const box = await (await fetch(`${gatewayOrigin}/mailbox`)).text();
        expect(box).toMatch(/<td>cook@example\.com<\/td><td><a href="\/mailbox\/[^"]+">Reminder: Potluck /);
        expect(box).toMatch(/<td>cook@example\.com<\/td><td><a href="\/mailbox\/[^"]+">You[^ ]* signed up: Potluck</);
      }, 15_000);
      // The organizer moves the date: the participant is told, with an updated invitation.
      const moved = await request(`${base}/signups/${potluck.body.id}`, {
        key,
        method: 'PATCH',
        body: { eventDate: '2027-01-04T18:00:00Z' },
      });
      expect(moved.status).toBe(200);
      await eventually(async () => {
        const box = await (await fetch(`${gatewayOrigin}/mailbox`)).text();
        expect(box).toMatch(/<td>cook@example\.com<\/td><td><a href="\/mailbox\/[^"]+">Your registration was updated: Potluck</);
      }, 15_000);

      // A new account's verification email lands in the mailbox (the in-process bus carries it to the reminders-service).
      const form = await fetch(`${stack.env.AUTH_URL!}/account/signup`);
      const cookie = form.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
      const signedUp = await fetch(`${stack.env.AUTH_URL!}/account/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({
          csrf,
          email: 'newcomer@example.com',
          password: 'a long enough password',
          organization: 'Newcomers',
        }).toString(),
        redirect: 'manual',
      });
      expect(signedUp.status).toBe(303);
      const mailbox = await (await fetch(`${gatewayOrigin}/mailbox`)).text();
      expect(mailbox).toMatch(
        /<td>newcomer@example\.com<\/td><td><a href="\/mailbox\/[^"]+">Verify your email address for Signups<\/a><\/td><td>Account verification<\/td>/,
      );

      // The client's sync example (libs/client/examples/sync.ts, built) on the embedded stack: a copy, then the log, is what the API lists.
      const dist = join(import.meta.dirname, '../../dist/libs/client');
      const client = (await import(pathToFileURL(join(dist, 'src/index.js')).href)) as typeof import('#libs/client');
      const example = (await import(
        pathToFileURL(join(dist, 'examples/sync.js')).href
      )) as typeof import('@signup-platform/client/examples/sync');
      const api = client.createClient({ baseUrl: base, token: key });
      const store = new MemoryStore();
      const sync = new example.SignupSync(api, store);
      await eventually(async () => {
        await sync.catchUp();
        expect(copyOf(store)).toEqual(await listed(api));
      }, 15_000);
      expect(store.participants.size).toBeGreaterThan(0);

      // The organizer's dashboard on the embedded stack, signed in as the demo user the banner prints.
      await dashboardStory(second.output, stack.env.AUTH_URL!, gatewayOrigin, base);
    } finally {
      await stop(second.child);
    }
  });
});

/** The organizer's story (support/dashboard-story.ts) on `npm start`, as its demo user, with a member made by the admin API. */
async function dashboardStory(banner: string, authUrl: string, origin: string, baseUrl: string): Promise<void> {
  const [, email, password] = /Demo user\s+(\S+) \/ (\S+)/.exec(banner)!;
  const [, organizationId] = /Demo organization\s+.+\((org_\w+)\)/.exec(banner)!;
  const [, adminToken] = /Admin token\s+(\S+)/.exec(banner)!;
  const admin = async <T>(path: string, body: unknown) =>
    (await request<T>(`${authUrl}/admin/${path}`, { body, headers: { authorization: `Bearer ${adminToken}` } })).body;
  const browser = await launchChromium();
  try {
    const story = new DashboardStory({
      browser,
      origin,
      authUrl,
      baseUrl,
      liveKey: (await admin<{ key: string }>('api-keys', { organizationId, mode: 'live' })).key,
      owner: { email: email!, password: password! },
      newMember: async () => {
        const member = { email: `member-${Date.now()}@example.com`, password: 'correct horse battery staple' };
        await admin('users', { ...member, organizationId, role: 'member' });
        return member;
      },
    });
    await story.signIn();
    await story.createSignup();
    await story.watchRegistrations();
    await story.remind();
    await story.promote();
    await story.checkInOnPhone();
    await story.exportCsv();
    await story.readNumbers();
    await story.memberCannotWrite();
    await story.webhook();
    await story.signOut();
    expect(story.findings).toEqual(Object.fromEntries(Object.keys(story.findings).map((name) => [name, []])));
  } finally {
    await browser.close();
  }
}
