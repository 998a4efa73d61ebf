import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLIENT_TYPES_FILE, clientTypesSource, eventually, type Receiver, startReceiver } from '#libs/testing';
import { newTenant } from './support/api.js';
import { person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const ROOT = join(import.meta.dirname, '../..');

/** The client as published: the package built into dist/libs/client. */
type Client = typeof import('#libs/client');

describe('the TypeScript client against the running stack', () => {
  let lib: Client;
  let receiver: Receiver;

  beforeAll(async () => {
    lib = (await import(pathToFileURL(join(ROOT, 'dist/libs/client/src/index.js')).href)) as Client;
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  async function tenantClient(options: Partial<Parameters<Client['createClient']>[0]> = {}) {
    const { key } = await newTenant();
    return lib.createClient({ baseUrl: stackInfo().baseUrl, token: key, ...options });
  }

  it('has the types the served OpenAPI document generates', async () => {
    const document = (await (await fetch(`${stackInfo().baseUrl}/openapi.json`)).json()) as object;
    expect(await clientTypesSource(document, ROOT)).toBe(readFileSync(join(ROOT, CLIENT_TYPES_FILE), 'utf8'));
  });

  it('creates a signup and pages through the lists with the iterator', async () => {
    const api = await tenantClient();
    const created = [];
    for (const title of ['First', 'Second', 'Third'])
      created.push(await api.post('/signups', { body: { title, eventDate: '2027-06-01T18:00:00.000Z' } }));
    const [signup] = created;
    const added = await api.post('/signups/{id}/slots', {
      params: { id: signup!.id },
      body: { slots: [{ title: 'All day', capacity: 10 }] },
    });
    const slots = 'data' in added ? added.data : [added];
    await api.post('/signups/{id}/publish', { params: { id: signup!.id } });
    const registered = [];
    for (let i = 0; i < 5; i++) {
      const body = person([{ type: 'slot', id: slots[0]!.id }]);
      registered.push(await api.post('/signups/{id}/participants', { params: { id: signup!.id }, body }));
    }

    const signupIds: string[] = [];
    for await (const one of api.paginate('/signups', { query: { limit: 1 } })) signupIds.push(one.id);
    expect(signupIds.sort()).toEqual(created.map((s) => s.id).sort());

    const pages = [];
    for await (const page of api.pages('/signups/{id}/participants', { params: { id: signup!.id }, query: { limit: 2 } }))
      pages.push(page.data.length);
    expect(pages).toEqual([2, 2, 1]);
    const participantIds: string[] = [];
    for await (const participant of api.paginate('/signups/{id}/participants', { params: { id: signup!.id }, query: { limit: 2 } })) {
      participantIds.push(participant.id);
    }
    expect(participantIds.sort()).toEqual(registered.map((r) => r.confirmed[0]!.participantId).sort());
  });

  it('throws typed problems: not_found, and validation_failed with its fields', async () => {
    const api = await tenantClient();
    const missing = await api.get('/signups/{id}', { params: { id: '0190b1a2-3c4d-7e5f-8a9b-0c1d2e3f4a5b' } }).catch((e: unknown) => e);
    expect(lib.isProblem(missing, 'not_found')).toBe(true);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', title: 'Not found', requestId: expect.any(String) });

    const invalid = await api.post('/signups', { body: { title: '', eventDate: 'tomorrow' } }).catch((e: unknown) => e);
    if (!lib.isProblem(invalid, 'validation_failed')) throw invalid;
    expect(invalid.status).toBe(422);
    expect(invalid.errors.map((e) => e.path).sort()).toEqual(['eventDate', 'title']);

    const anonymous = lib.createClient({ baseUrl: stackInfo().baseUrl });
    await expect(anonymous.get('/signups')).rejects.toMatchObject({ status: 401, code: 'missing_credentials' });
  });

  it('sends a mutation again with its Idempotency-Key when the answer was lost, and the API runs it once', async () => {
    const sent: { key: string | null; replayed: string | null }[] = [];
    let lose = true;
    const api = await tenantClient({
      sleep: async () => {},
      // The request reaches the API, and its answer is lost on the way back, once.
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (init?.method === 'POST')
          sent.push({ key: new Headers(init.headers).get('idempotency-key'), replayed: res.headers.get('idempotent-replayed') });
        if (init?.method === 'POST' && lose) {
          lose = false;
          await res.body?.cancel();
          throw new TypeError('fetch failed');
        }
        return res;
      },
    });
    const signup = await api.post('/signups', { body: { title: 'Once only', eventDate: '2027-06-01T18:00:00.000Z' } });
    expect(sent).toEqual([
      { key: expect.any(String), replayed: null },
      { key: sent[0]!.key, replayed: 'true' },
    ]);
    const all = [];
    for await (const one of api.paginate('/signups')) all.push(one.id);
    expect(all).toEqual([signup.id]);
  });

  it('verifies a real webhook delivery from the stack as a typed event', async () => {
    const api = await tenantClient();
    const { signingSecret } = await api.post('/webhooks', { body: { url: receiver.url('/client'), eventTypes: ['signup.created'] } });
    const signup = await api.post('/signups', { body: { title: 'Announced', eventDate: '2027-06-01T18:00:00.000Z' } });
    const delivery = await eventually(() => {
      const found = receiver.received.find((r) => r.path === '/client' && r.body.includes(signup.id));
      expect(found).toBeDefined();
      return found!;
    }, 10_000);
    const event = new lib.WebhookVerifier(signingSecret).verify(delivery.body, delivery.headers);
    expect(event).toMatchObject({ id: delivery.headers['webhook-id'], type: 'signup.created', data: { id: signup.id, livemode: false } });
    expect(() => new lib.WebhookVerifier(signingSecret).verify(delivery.body.replace('Announced', 'Forged'), delivery.headers)).toThrow(
      lib.WebhookVerificationError,
    );
  });
});
