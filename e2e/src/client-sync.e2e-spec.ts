import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newId } from '#libs/contracts';
import { eventually, type Receiver, startReceiver } from '#libs/testing';
import { newTenant } from './support/api.js';
import { person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';
import { copyOf, listed, MemoryStore } from './support/sync-store.js';

const ROOT = join(import.meta.dirname, '../..');

/** The client and its sync example as published: built into dist/libs/client. */
type Client = typeof import('#libs/client');
type Example = typeof import('@signup-platform/client/examples/sync');

/** An event id (UUID v7) made `ms` ago. */
function idMadeAgo(ms: number): string {
  const hex = (Date.now() - ms).toString(16).padStart(12, '0') + newId().replaceAll('-', '').slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe("the client's sync example (libs/client/examples/sync.ts) against the running stack", () => {
  let lib: Client;
  let example: Example;
  let receiver: Receiver;

  beforeAll(async () => {
    lib = (await import(pathToFileURL(join(ROOT, 'dist/libs/client/src/index.js')).href)) as Client;
    example = (await import(pathToFileURL(join(ROOT, 'dist/libs/client/examples/sync.js')).href)) as Example;
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  it('copies everything, catches up from the log, skips a webhook already applied, and re-copies when its position expired', async () => {
    const { key } = await newTenant();
    const logReads: string[] = [];
    const api = lib.createClient({
      baseUrl: stackInfo().baseUrl,
      token: key,
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        if (url.pathname.endsWith('/events')) logReads.push(url.search);
        return fetch(input, init);
      },
    });
    const hookPath = `/sync-${newId()}`;
    const { signingSecret } = await api.post('/webhooks', { body: { url: receiver.url(hookPath) } });
    const verifier = new lib.WebhookVerifier(signingSecret);

    async function newSignup(title: string) {
      const signup = await api.post('/signups', { body: { title, eventDate: '2027-06-01T18:00:00.000Z' } });
      const added = await api.post('/signups/{id}/slots', {
        params: { id: signup.id },
        body: { slots: [{ title: 'All day', capacity: 10 }] },
      });
      const slotId = ('data' in added ? added.data : [added])[0]!.id;
      await api.post('/signups/{id}/publish', { params: { id: signup.id } });
      const register = async () =>
        (await api.post('/signups/{id}/participants', { params: { id: signup.id }, body: person([{ type: 'slot', id: slotId }]) }))
          .confirmed[0]!.participantId;
      return { signup, register };
    }
    const cancel = (signupId: string, participantId: string) =>
      api.delete('/signups/{id}/participants/{participantId}', { params: { id: signupId, participantId } });

    const kept = await newSignup('Kept');
    const gone = await newSignup('Gone');
    const stays = await kept.register();
    const leaves = await kept.register();
    const leftEarly = await kept.register();
    await cancel(kept.signup.id, leftEarly);
    await gone.register();

    // 1. The first catch-up copies everything; a change made once the listing is done is read from the log.
    const store = new MemoryStore();
    store.afterListing = async () => {
      await api.patch('/signups/{id}', { params: { id: kept.signup.id }, body: { location: 'Changed during the copy' } });
      // Recorded in the log before the copy ends: a mark read after the listing would be past it.
      await eventually(async () => {
        const [newest] = (await api.get('/events', { query: { limit: 1 } })).data;
        expect(newest).toMatchObject({ type: 'signup.updated', data: { location: 'Changed during the copy' } });
      }, 15_000);
    };
    const sync = new example.SignupSync(api, store);
    await sync.catchUp();
    expect(store.participants.get(leftEarly)).toMatchObject({ status: 'cancelled' });
    await eventually(async () => {
      await sync.catchUp();
      expect(store.signups.get(kept.signup.id)).toMatchObject({ location: 'Changed during the copy' });
    }, 15_000);

    // 2. Changes, then the log after the last entry applied, oldest first.
    await api.patch('/signups/{id}', { params: { id: kept.signup.id }, body: { title: 'Kept, renamed' } });
    const joins = await kept.register();
    await cancel(kept.signup.id, leaves);
    await api.delete('/signups/{id}', { params: { id: gone.signup.id } });
    // reminder.sent: the reminded participants' remindedAt (no participant event says it).
    expect(await api.post('/signups/{id}/reminders/send', { params: { id: kept.signup.id }, body: { channel: 'email' } })).toMatchObject({
      sent: 2,
    });
    // One catch-up at a time: calls made while one runs wait for it, then read the log once more together.
    const logStarts = () => logReads.filter((search) => search.startsWith('?after=')).length;
    const startsBefore = logStarts();
    await Promise.all([sync.catchUp(), sync.catchUp(), sync.catchUp()]);
    expect(logStarts() - startsBefore).toBe(2);
    await eventually(async () => {
      await sync.catchUp();
      expect(copyOf(store)).toEqual(await listed(api));
    }, 15_000);
    expect(store.signups.has(gone.signup.id)).toBe(false);
    expect([...store.participants.values()].filter((p) => p.signupId === gone.signup.id)).toEqual([]);
    expect(store.signups.get(kept.signup.id)).toMatchObject({ title: 'Kept, renamed' });
    expect(store.participants.get(leaves)).toMatchObject({ status: 'cancelled' });
    expect(store.participants.get(joins)).toMatchObject({ status: 'confirmed' });
    expect(store.participants.get(stays)).toMatchObject({ status: 'confirmed', remindedAt: expect.any(String) });

    // 3. A webhook delivery of an event applied already (from the log, in step 1) is skipped by its id:
    //    no log read, and its older picture of the signup (its first title) does not come back.
    const applied = await eventually(() => {
      const found = receiver.received.find((r) => r.path === hookPath && r.body.includes('Changed during the copy'));
      expect(found).toBeDefined();
      return verifier.verify(found!.body, found!.headers);
    }, 15_000);
    expect(applied).toMatchObject({ type: 'signup.updated', data: { title: 'Kept' } });
    expect(store.applied.has(applied.id)).toBe(true);
    const readsBefore = logReads.length;
    expect(await sync.receive(applied)).toBe(false);
    expect(logReads.length).toBe(readsBefore);
    expect(store.signups.get(kept.signup.id)).toMatchObject({ title: 'Kept, renamed' });

    //    One not applied yet makes the log be read.
    await api.patch('/signups/{id}', { params: { id: kept.signup.id }, body: { title: 'Kept, announced' } });
    const updated = await eventually(() => {
      const found = receiver.received.find((r) => r.path === hookPath && r.body.includes('Kept, announced'));
      expect(found).toBeDefined();
      return verifier.verify(found!.body, found!.headers);
    }, 15_000);
    expect(await sync.receive(updated)).toBe(true);
    expect(logReads.length).toBeGreaterThan(readsBefore);
    await eventually(async () => {
      await sync.receive(updated);
      expect(store.applied.has(updated.id)).toBe(true);
    }, 15_000);
    expect(store.signups.get(kept.signup.id)).toMatchObject({ title: 'Kept, announced' });

    // 4. Away longer than the log keeps: 410 cursor_expired, and the changes made meanwhile come from a re-copy.
    const third = await newSignup('Third');
    const third1 = await third.register();
    await cancel(kept.signup.id, stays);
    await api.delete('/signups/{id}', { params: { id: third.signup.id } });
    await eventually(async () => {
      const [newest] = (await api.get('/events', { query: { limit: 1 } })).data;
      expect(newest).toMatchObject({ type: 'signup.deleted', data: { id: third.signup.id } });
    }, 15_000);
    const expired = idMadeAgo(31 * 24 * 3600_000);
    await expect(api.get('/events', { query: { after: expired } })).rejects.toMatchObject({ status: 410, code: 'cursor_expired' });
    store.state = { ...store.state, lastEventId: expired };
    store.signups.set(third.signup.id, third.signup); // seen by no event: only the re-copy's full list can drop it
    const appliedBefore = new Set(store.applied);
    await sync.catchUp();
    expect(copyOf(store)).toEqual(await listed(api));
    expect(store.participants.get(stays)).toMatchObject({ status: 'cancelled' });
    expect(store.participants.has(third1)).toBe(false);
    expect(store.signups.has(third.signup.id)).toBe(false);
    expect([...store.applied].filter((id) => !appliedBefore.has(id))).toEqual([]);
    expect(store.state.lastEventId).not.toBe(expired);
  });
});
