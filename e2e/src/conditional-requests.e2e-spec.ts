import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import {
  etagOf,
  type ParticipantView,
  type RegistrationResultView,
  type RegistrationView,
  type SignupView,
  type WebhookEndpointView,
  type WebhookWithSecretView,
} from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { type Receiver, startReceiver } from '#libs/testing';
import { call, newTenant, signupBody } from './support/api.js';
import { HOSTILE_CONDITIONS } from './support/hostile-inputs.js';
import { stackInfo } from './support/stack-env.js';

type Page<T> = { data: T[]; nextCursor: string | null };

async function newDraft(key: string, overrides: Record<string, unknown> = {}): Promise<SignupView> {
  const created = await call<SignupView>('/signups', { key, body: signupBody(overrides) });
  expect(created.status).toBe(201);
  return created.body;
}

async function tagOf(key: string | undefined, path: string): Promise<string> {
  const read = await call(path, { key });
  expect(read.status).toBe(200);
  return read.headers.get('etag')!;
}

/** A published signup of the key's with two slots and one participant registered for the first: the paths of the participant. */
async function registered(key: string) {
  const signup = await newDraft(key);
  const slots = await call<{ data: { id: string }[] }>(`/signups/${signup.id}/slots`, {
    key,
    body: {
      slots: [
        { title: 'Morning', capacity: 3 },
        { title: 'Evening', capacity: 3 },
      ],
    },
  });
  expect(slots.status).toBe(201);
  expect((await call(`/signups/${signup.id}/publish`, { key, method: 'POST' })).status).toBe(200);
  const registration = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
    body: { name: 'Ada', email: `ada-${randomUUID()}@example.com`, selections: [{ type: 'slot', id: slots.body.data[0]!.id }] },
  });
  expect(registration.status).toBe(201);
  const participantId = registration.body.confirmed[0]!.participantId;
  return {
    signupId: signup.id,
    evening: slots.body.data[1]!.id,
    participant: `/signups/${signup.id}/participants/${participantId}`,
    registration: `/registrations/${registration.body.confirmationToken!}`,
  };
}

/** One request written byte for byte on a socket (what fetch refuses to send: control characters, bytes past U+00FF); its status. */
function rawStatus(path: string, method: string, key: string, header: Buffer): Promise<number> {
  const url = new URL(`${stackInfo().baseUrl}${path}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        Buffer.concat([
          Buffer.from(`${method} ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n`),
          header,
          Buffer.from('\r\n\r\n'),
        ]),
      );
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'))?.[1] ?? 0)));
  });
}

describe('conditional requests over REST', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  describe('ETag and If-None-Match on reads', () => {
    it('tags a signup with the strong tag of its body and answers 304 with no body to a matching If-None-Match', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const read = await call<SignupView>(`/signups/${signup.id}`, { key });
      const etag = read.headers.get('etag')!;
      expect(etag).toBe(etagOf(read.body));
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await fetch(`${stackInfo().baseUrl}/signups/${signup.id}`, {
          headers: { authorization: `Bearer ${key}`, 'if-none-match': condition },
        });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('x-request-id')).toBeTruthy();
        expect(again.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      }
      const stale = await call<SignupView>(`/signups/${signup.id}`, { key, headers: { 'if-none-match': '"stale"' } });
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(read.body);
    });

    it('refuses If-None-Match on a PATCH or DELETE with 412 and changes nothing: a write is conditioned by If-Match', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key, { title: 'Kept' });
      const etag = (
        await fetch(`${stackInfo().baseUrl}/signups/${signup.id}`, { headers: { authorization: `Bearer ${key}` } })
      ).headers.get('etag')!;
      for (const condition of ['*', etag, '"other"']) {
        const edit = await call<ProblemBody>(`/signups/${signup.id}`, {
          key,
          method: 'PATCH',
          body: { title: 'Changed' },
          headers: { 'if-none-match': condition },
        });
        const removal = await call<ProblemBody>(`/signups/${signup.id}`, {
          key,
          method: 'DELETE',
          headers: { 'if-none-match': condition },
        });
        expect([edit.status, edit.body.code, removal.status, removal.body.code]).toEqual([
          412,
          'precondition_failed',
          412,
          'precondition_failed',
        ]);
      }
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body.title).toBe('Kept');
    });

    it("tags a list by its page: an entry's change or another cursor gives another tag", async () => {
      const { key } = await newTenant();
      const first = await newDraft(key, { title: 'First' });
      await newDraft(key, { title: 'Second' });
      const page = await call<Page<SignupView>>('/signups?limit=1', { key });
      const etag = page.headers.get('etag')!;
      expect(etag).toBe(etagOf(page.body));
      expect(
        (await fetch(`${stackInfo().baseUrl}/signups?limit=1`, { headers: { authorization: `Bearer ${key}`, 'if-none-match': etag } }))
          .status,
      ).toBe(304);
      const next = await call<Page<SignupView>>(`/signups?limit=1&cursor=${page.body.nextCursor}`, { key });
      expect(next.headers.get('etag')).not.toBe(etag);
      const entry = page.body.data[0]!;
      await call(`/signups/${entry.id}`, { key, method: 'PATCH', body: { title: `${entry.title} again` } });
      const changed = await call<Page<SignupView>>('/signups?limit=1', { key, headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(first.id).toBeTruthy();
    });

    it('tags a webhook endpoint and the list of endpoints', async () => {
      const { key } = await newTenant();
      const created = await call<WebhookWithSecretView>('/webhooks', { key, body: { url: receiver.url() } });
      const one = await call<WebhookEndpointView>(`/webhooks/${created.body.endpoint.id}`, { key });
      expect(one.headers.get('etag')).toBe(etagOf(one.body));
      const list = await call<Page<WebhookEndpointView>>('/webhooks', { key });
      expect(list.headers.get('etag')).toBe(etagOf(list.body));
    });
  });

  describe('If-Match on writes', () => {
    it('edits a signup with its current tag and answers the new tag, the one a GET then gives', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const etag = await tagOf(key, `/signups/${signup.id}`);
      const edited = await call<SignupView>(`/signups/${signup.id}`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': etag },
        body: { title: 'New' },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.title).toBe('New');
      const newTag = edited.headers.get('etag')!;
      expect(newTag).not.toBe(etag);
      expect(await tagOf(key, `/signups/${signup.id}`)).toBe(newTag);
      const again = await call<SignupView>(`/signups/${signup.id}`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': newTag },
        body: { title: 'Newer' },
      });
      expect(again.status).toBe(200);
    });

    it('refuses an edit and a deletion of a signup with a stale tag with 412 precondition_failed, changing nothing', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const stale = await tagOf(key, `/signups/${signup.id}`);
      await call(`/signups/${signup.id}`, { key, method: 'PATCH', body: { title: 'Changed by another editor' } });
      const before = await call<SignupView>(`/signups/${signup.id}`, { key });
      const edit = await call<ProblemBody>(`/signups/${signup.id}`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': stale },
        body: { title: 'Mine' },
      });
      expect(edit.status).toBe(412);
      expect(edit.body).toMatchObject({ code: 'precondition_failed', status: 412 });
      const removal = await call<ProblemBody>(`/signups/${signup.id}`, { key, method: 'DELETE', headers: { 'if-match': stale } });
      expect(removal.status).toBe(412);
      expect(removal.body.code).toBe('precondition_failed');
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body).toEqual(before.body);
      expect(
        (await call(`/signups/${signup.id}`, { key, method: 'DELETE', headers: { 'if-match': `"x", ${before.headers.get('etag')}` } }))
          .status,
      ).toBe(204);
      expect((await call(`/signups/${signup.id}`, { key })).status).toBe(404);
    });

    it('takes * as "exists", and a weak tag never matches', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const etag = await tagOf(key, `/signups/${signup.id}`);
      expect(
        (await call(`/signups/${signup.id}`, { key, method: 'PATCH', headers: { 'if-match': `W/${etag}` }, body: { title: 'W' } })).status,
      ).toBe(412);
      expect(
        (await call(`/signups/${signup.id}`, { key, method: 'PATCH', headers: { 'if-match': '*' }, body: { title: 'Any' } })).status,
      ).toBe(200);
      expect(
        (await call(`/signups/${randomUUID()}`, { key, method: 'PATCH', headers: { 'if-match': '*' }, body: { title: 'Any' } })).status,
      ).toBe(404);
    });

    it('of two edits of a signup sent together with the same tag, exactly one applies; the other is 412', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const etag = await tagOf(key, `/signups/${signup.id}`);
      const titles = ['Editor A', 'Editor B', 'Editor C', 'Editor D'];
      const answers = await Promise.all(
        titles.map((title) =>
          call<SignupView>(`/signups/${signup.id}`, { key, method: 'PATCH', headers: { 'if-match': etag }, body: { title } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412]);
      const winner = answers.find((a) => a.status === 200)!;
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body.title).toBe(winner.body.title);
    });

    it('guards a webhook endpoint: stale tags refused, the current one applies, and parallel edits with one tag let one through', async () => {
      const { key } = await newTenant();
      const created = await call<WebhookWithSecretView>('/webhooks', { key, body: { url: receiver.url() } });
      const path = `/webhooks/${created.body.endpoint.id}`;
      const etag = await tagOf(key, path);
      const answers = await Promise.all(
        ['One', 'Two', 'Three'].map((description) =>
          call<WebhookEndpointView>(path, { key, method: 'PATCH', headers: { 'if-match': etag }, body: { description } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(winner.headers.get('etag')).toBe(await tagOf(key, path));
      expect((await call<ProblemBody>(path, { key, method: 'DELETE', headers: { 'if-match': etag } })).body.code).toBe(
        'precondition_failed',
      );
      expect((await call(path, { key })).status).toBe(200);
      expect((await call(path, { key, method: 'DELETE', headers: { 'if-match': winner.headers.get('etag')! } })).status).toBe(200);
      expect((await call(path, { key })).status).toBe(404);
    });

    it("guards a signup's slots and items by the signup's tag: a slot's edit changes it, so a second write with it is 412", async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const slot = await call<{ id: string }>(`/signups/${signup.id}/slots`, { key, body: { title: 'Morning', capacity: 2 } });
      const item = await call<{ id: string }>(`/signups/${signup.id}/items`, { key, body: { name: 'Cake', quantityNeeded: 1 } });
      expect([slot.status, item.status]).toEqual([201, 201]);
      const etag = await tagOf(key, `/signups/${signup.id}`);
      const edited = await call(`/signups/${signup.id}/slots/${slot.body.id}`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': etag },
        body: { capacity: 3 },
      });
      expect(edited.status).toBe(200);
      const staleEdit = await call<ProblemBody>(`/signups/${signup.id}/items/${item.body.id}`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': etag },
        body: { quantityNeeded: 5 },
      });
      expect([staleEdit.status, staleEdit.body.code]).toEqual([412, 'precondition_failed']);
      const staleRemoval = await call<ProblemBody>(`/signups/${signup.id}/slots/${slot.body.id}`, {
        key,
        method: 'DELETE',
        headers: { 'if-match': etag },
      });
      expect([staleRemoval.status, staleRemoval.body.code]).toEqual([412, 'precondition_failed']);
      const after = await call<SignupView & { slots: { capacity: number }[]; items: { quantityNeeded: number }[] }>(
        `/signups/${signup.id}`,
        { key },
      );
      expect(after.body.slots.map((s) => s.capacity)).toEqual([3]);
      expect(after.body.items.map((i) => i.quantityNeeded)).toEqual([1]);
      const removal = await call(`/signups/${signup.id}/items/${item.body.id}`, {
        key,
        method: 'DELETE',
        headers: { 'if-match': after.headers.get('etag')! },
      });
      expect(removal.status).toBe(200);
    });

    it('reads one participant with its tag; a PATCH with it answers the new tag, parallel PATCHes with one tag let one through', async () => {
      const { key } = await newTenant();
      const { signupId, participant } = await registered(key);
      const read = await call<ParticipantView>(participant, { key });
      expect(read.status).toBe(200);
      const list = await call<Page<ParticipantView>>(`/signups/${signupId}/participants`, { key });
      expect(read.body).toEqual(list.body.data[0]);
      const etag = read.headers.get('etag')!;
      expect(etag).toBe(etagOf(read.body));
      expect((await call(participant, { key, headers: { 'if-none-match': etag } })).status).toBe(304);
      expect((await call(`/signups/${signupId}/participants/${randomUUID()}`, { key })).status).toBe(404);
      expect((await call(participant, { key: (await newTenant()).key })).status).toBe(403);

      const answers = await Promise.all(
        ['Ada A', 'Ada B', 'Ada C'].map((name) =>
          call<ParticipantView>(participant, { key, method: 'PATCH', headers: { 'if-match': etag }, body: { name } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412]);
      expect(answers.filter((a) => a.status === 412).map((a) => (a.body as unknown as ProblemBody).code)).toEqual([
        'precondition_failed',
        'precondition_failed',
      ]);
      const winner = answers.find((a) => a.status === 200)!;
      const after = await call<ParticipantView>(participant, { key });
      expect(after.body.name).toBe(winner.body.name);
      expect(winner.headers.get('etag')).toBe(after.headers.get('etag'));

      const staleCancel = await call<ProblemBody>(participant, { key, method: 'DELETE', headers: { 'if-match': etag } });
      expect([staleCancel.status, staleCancel.body.code]).toEqual([412, 'precondition_failed']);
      const hours = await call<ProblemBody>(`${participant}/attendance`, {
        key,
        method: 'PATCH',
        headers: { 'if-match': etag },
        body: { hoursServed: 2 },
      });
      expect([hours.status, hours.body.code]).toEqual([412, 'precondition_failed']);
      expect((await call<ParticipantView>(participant, { key })).body).toEqual(after.body);
      const cancelled = await call<ParticipantView>(participant, {
        key,
        method: 'DELETE',
        headers: { 'if-match': after.headers.get('etag')! },
      });
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    });

    it('guards a registration by its confirmation token with the tag its GET answers', async () => {
      const { key } = await newTenant();
      const { participant, registration, evening } = await registered(key);
      const etag = await tagOf(undefined, registration);
      await call(participant, { key, method: 'PATCH', body: { name: 'Changed by the organizer' } });
      const before = await call<RegistrationView>(registration);
      const stale = await call<ProblemBody>(registration, { method: 'PATCH', headers: { 'if-match': etag }, body: { name: 'Mine' } });
      expect([stale.status, stale.body.code]).toEqual([412, 'precondition_failed']);
      const staleCancel = await call<ProblemBody>(registration, { method: 'DELETE', headers: { 'if-match': etag } });
      expect([staleCancel.status, staleCancel.body.code]).toEqual([412, 'precondition_failed']);
      expect((await call<RegistrationView>(registration)).body).toEqual(before.body);

      const current = before.headers.get('etag')!;
      const answers = await Promise.all([
        call<RegistrationView>(registration, { method: 'PATCH', headers: { 'if-match': current }, body: { name: 'Mine' } }),
        call<RegistrationView>(registration, {
          method: 'PATCH',
          headers: { 'if-match': current },
          body: { selections: [{ type: 'slot', id: evening }] },
        }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(winner.headers.get('etag')).toBe(await tagOf(undefined, registration));
    });

    it("guards the calendar feed's revocation with the tag of its GET: a rotation in between makes it 412", async () => {
      const { key } = await newTenant();
      expect((await call('/calendar-feed', { key, method: 'POST' })).status).toBe(201);
      const etag = await tagOf(key, '/calendar-feed');
      expect((await call('/calendar-feed', { key, method: 'POST' })).status).toBe(201);
      const rotated = await call('/calendar-feed', { key });
      const stale = await call<ProblemBody>('/calendar-feed', { key, method: 'DELETE', headers: { 'if-match': etag } });
      expect([stale.status, stale.body.code]).toEqual([412, 'precondition_failed']);
      expect((await call('/calendar-feed', { key })).body).toEqual(rotated.body);
      const current = rotated.headers.get('etag')!;
      expect((await call('/calendar-feed', { key, method: 'DELETE', headers: { 'if-match': current } })).status).toBe(204);
      expect((await call<{ exists: boolean }>('/calendar-feed', { key })).body.exists).toBe(false);
    });

    it('validates If-Match on a POST and otherwise ignores it: an action has no representation to compare', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const malformed = await call<ProblemBody>(`/signups/${signup.id}/publish`, { key, method: 'POST', headers: { 'if-match': 'abc' } });
      expect([malformed.status, malformed.body.code]).toEqual([422, 'validation_failed']);
      const published = await call<SignupView>(`/signups/${signup.id}/publish`, { key, method: 'POST', headers: { 'if-match': '"any"' } });
      expect([published.status, published.body.status]).toEqual([200, 'published']);
    });

    it('replays an edit with its Idempotency-Key and its stored ETag; the key with another If-Match is idempotency_key_reuse', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const etag = await tagOf(key, `/signups/${signup.id}`);
      const headers = { 'if-match': etag, 'idempotency-key': randomUUID() };
      const first = await call<SignupView>(`/signups/${signup.id}`, { key, method: 'PATCH', headers, body: { title: 'Once' } });
      const replay = await call<SignupView>(`/signups/${signup.id}`, { key, method: 'PATCH', headers, body: { title: 'Once' } });
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
      const other = await call<ProblemBody>(`/signups/${signup.id}`, {
        key,
        method: 'PATCH',
        headers: { ...headers, 'if-match': first.headers.get('etag')! },
        body: { title: 'Once' },
      });
      expect(other.body.code).toBe('idempotency_key_reuse');
    });
  });

  describe('the served OpenAPI document', () => {
    type Op = {
      parameters?: { name: string; in: string; description?: string }[];
      responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
    };

    it('documents If-Match and 412 precondition_failed on every PATCH and DELETE, each evaluating it, and If-None-Match, ETag and 304 on every JSON GET', async () => {
      const doc = (await call<{ paths: Record<string, Record<string, Op>> }>('/openapi.json')).body;
      const missing: string[] = [];
      let reads = 0;
      let writes = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const header = (name: string) => op.parameters?.some((p) => p.in === 'header' && p.name === name);
          if (method === 'patch' || method === 'delete') {
            writes++;
            const ifMatch = op.parameters?.find((p) => p.in === 'header' && p.name === 'If-Match');
            if (!ifMatch?.description?.startsWith('Write only if')) missing.push(`${method} ${path}: If-Match evaluated`);
            if (!op.responses['412']?.description.includes('precondition_failed')) missing.push(`${method} ${path}: 412`);
          }
          if (method === 'get' && op.responses['200']?.content?.['application/json']) {
            reads++;
            if (!header('If-None-Match')) missing.push(`${method} ${path}: If-None-Match`);
            if (!op.responses['304']) missing.push(`${method} ${path}: 304`);
            if (!op.responses['200'].headers?.['ETag']) missing.push(`${method} ${path}: ETag`);
          }
        }
      }
      expect(missing).toEqual([]);
      expect([reads > 10, writes > 10]).toEqual([true, true]);
      for (const path of ['/api/v1/signups', '/api/v1/signups/{id}', '/api/v1/webhooks', '/api/v1/webhooks/{id}']) {
        expect(doc.paths[path]!['get']!.responses['304']).toBeDefined();
      }
      for (const path of [
        '/api/v1/signups/{id}',
        '/api/v1/signups/{id}/participants/{participantId}',
        '/api/v1/registrations/{confirmationToken}',
      ]) {
        expect(doc.paths[path]!['patch']!.responses['200']!.headers?.['ETag']).toBeDefined();
      }
      expect(doc.paths['/api/v1/signups/{id}/participants/{participantId}']!['get']!.responses['304']).toBeDefined();
    });

    it('serves the page of the new problem type', async () => {
      const page = await fetch(`${new URL(stackInfo().baseUrl).origin}/problems/precondition-failed`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Precondition failed');
    });
  });

  describe('malformed conditions', () => {
    it('refuses a malformed If-Match or If-None-Match with 422 validation_failed on the header, changing nothing', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const before = await call<SignupView>(`/signups/${signup.id}`, { key });
      const failures: string[] = [];
      for (const { name, value } of HOSTILE_CONDITIONS) {
        for (const [header, method] of [
          ['If-None-Match', 'GET'],
          ['If-Match', 'PATCH'],
          ['If-Match', 'DELETE'],
        ] as const) {
          const res = await call<ProblemBody>(`/signups/${signup.id}`, {
            key,
            method,
            headers: { [header]: value },
            ...(method === 'PATCH' && { body: { title: 'Hostile' } }),
          });
          if (res.status !== 422 || res.body?.code !== 'validation_failed' || res.body.errors?.[0]?.path !== header) {
            failures.push(`${method} ${header} ${name}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body).toEqual(before.body);
    });

    it('refuses control characters and bytes past ASCII outside quotes with a 4xx, never a 5xx, changing nothing', async () => {
      const { key } = await newTenant();
      const signup = await newDraft(key);
      const before = await call<SignupView>(`/signups/${signup.id}`, { key });
      const headers = [
        Buffer.from('If-Match: "a\x01b"', 'latin1'),
        Buffer.from('If-Match: \ud800', 'utf8'),
        Buffer.from('If-None-Match: "a"\x7f', 'latin1'),
        Buffer.from('If-Match: "\u00e9"x', 'utf8'),
      ];
      for (const header of headers) {
        for (const method of ['GET', 'DELETE']) {
          const status = await rawStatus(`/signups/${signup.id}`, method, key, header);
          expect([method, header.toString('latin1'), status >= 400 && status < 500]).toEqual([method, header.toString('latin1'), true]);
        }
      }
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body).toEqual(before.body);
    });
  });
});
