import { randomBytes, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { streamNameFor } from '#libs/runtime';
import { call, newTenant, signupBody } from './support/api.js';
import { startGateway } from './support/processes.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const withKey = (idempotencyKey: string) => ({ 'idempotency-key': idempotencyKey });

describe('Idempotency-Key', () => {
  it('replays the stored status, headers and body of a completed request, marked Idempotent-Replayed', async () => {
    const { key } = await newTenant();
    const headers = withKey(randomUUID());
    const original = await call<SignupView>('/signups', { key, headers, body: signupBody() });
    const replay = await call<SignupView>('/signups', { key, headers, body: signupBody() });
    expect(original.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(original.body);
    expect(replay.headers.get('content-type')).toBe(original.headers.get('content-type'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(original.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.headers.get('x-request-id')).not.toBe(original.headers.get('x-request-id'));
    expect((await call<{ data: SignupView[] }>('/signups', { key })).body.data).toHaveLength(1);
  });

  it('treats a quoted structured-field string as the same key', async () => {
    const { key } = await newTenant();
    const bare = `order-${randomUUID()}`;
    const original = await call<SignupView>('/signups', { key, headers: withKey(bare), body: signupBody() });
    const quoted = await call<SignupView>('/signups', { key, headers: withKey(`"${bare}"`), body: signupBody() });
    expect(quoted.headers.get('idempotent-replayed')).toBe('true');
    expect(quoted.body.id).toBe(original.body.id);
  });

  it('refuses a key used with another body, another path or another method with idempotency_key_reuse', async () => {
    const { key } = await newTenant();
    const headers = withKey(randomUUID());
    const created = await call<SignupView>('/signups', { key, headers, body: signupBody() });
    const otherBody = await call<ProblemBody>('/signups', { key, headers, body: signupBody({ title: 'Another' }) });
    const otherPath = await call<ProblemBody>(`/signups/${created.body.id}/publish`, { key, headers, method: 'POST' });
    const otherMethod = await call<ProblemBody>(`/signups/${created.body.id}`, { key, headers, method: 'PATCH', body: signupBody() });
    for (const res of [otherBody, otherPath, otherMethod]) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'idempotency_key_reuse', status: 422 });
    }
    expect((await call<SignupView>(`/signups/${created.body.id}`, { key })).body.status).toBe('draft');
  });

  it('stores a 4xx answer and replays it', async () => {
    const { key } = await newTenant();
    const headers = withKey(randomUUID());
    const first = await call<ProblemBody>('/signups', { key, headers, body: { title: '' } });
    const again = await call<ProblemBody>('/signups', { key, headers, body: { title: '' } });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays a DELETE as its 204', async () => {
    const { key } = await newTenant();
    const { signup } = await newSignup(key, { publish: false });
    const headers = withKey(randomUUID());
    const first = await call(`/signups/${signup.id}`, { key, headers, method: 'DELETE' });
    const again = await call(`/signups/${signup.id}`, { key, headers, method: 'DELETE' });
    expect([first.status, again.status]).toEqual([204, 204]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await call(`/signups/${signup.id}`, { key, method: 'DELETE' })).status).toBe(404);
  });

  it('replays a registration with the same confirmation token, storing one participant', async () => {
    const { key } = await newTenant();
    const { signup, slots } = await newSignup(key, { slots: [{ title: 'Morning', capacity: 5 }] });
    const headers = withKey(randomUUID());
    const body = person([{ type: 'slot', id: slots[0]!.id }]);
    const first = await call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, { headers, body });
    const again = await call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, { headers, body });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.confirmationToken).toBe(first.body.confirmationToken);
    expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body.participantCount).toBe(1);
  });

  it('keeps keys apart per organization and per mode', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const live = await tenant.newKey({ mode: 'live' });
    const headers = withKey(randomUUID());
    const answers = await Promise.all(
      [tenant.key, live.key, other.key].map((key) => call<SignupView>('/signups', { key, headers, body: signupBody() })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(answers.map((r) => r.headers.get('idempotent-replayed'))).toEqual([null, null, null]);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(3);
    const replays = await Promise.all(
      [tenant.key, live.key, other.key].map((key) => call<SignupView>('/signups', { key, headers, body: signupBody() })),
    );
    expect(replays.map((r) => r.headers.get('idempotent-replayed'))).toEqual(['true', 'true', 'true']);
    expect(replays.map((r) => r.body.id)).toEqual(answers.map((r) => r.body.id));
  });

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a space', 'two words'],
  ])('refuses %s with validation_failed', async (_name, value) => {
    const { key } = await newTenant();
    const res = await call<ProblemBody>('/signups', { key, headers: withKey(value), body: signupBody() });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'Idempotency-Key' }] });
    expect((await call<{ data: SignupView[] }>('/signups', { key })).body.data).toHaveLength(0);
  });

  it('ignores the header on reads', async () => {
    const { key } = await newTenant();
    const res = await call('/signups', { key, headers: withKey('') });
    expect(res.status).toBe(200);
  });

  it('does not store a 5xx answer: a retry with the key executes', async () => {
    const { key } = await newTenant();
    const { signup } = await newSignup(key);
    const deadPrefix = `dead${randomBytes(4).toString('hex')}.`;
    const cutOff = await startGateway({ NATS_PREFIX: deadPrefix, TRUST_PROXY: '127.0.0.1', BUS_TIMEOUT_MS: '500' });
    try {
      const headers = { ...withKey(randomUUID()), 'x-forwarded-for': '198.51.100.200' };
      const body = person();
      const failed = await cutOff.call<ProblemBody>(`/signups/${signup.id}/participants`, { headers, body });
      expect(failed.status).toBe(500);
      expect(failed.body.code).toBe('internal_error');
      const healthy = await startGateway({ TRUST_PROXY: '127.0.0.1' });
      try {
        const retried = await healthy.call(`/signups/${signup.id}/participants`, { headers, body });
        expect(retried.status).toBe(201);
        expect(retried.headers.get('idempotent-replayed')).toBeNull();
      } finally {
        await healthy.stop();
      }
    } finally {
      await cutOff.stop();
      const nc = await connect({ servers: stackInfo().natsUrl });
      await (await jetstreamManager(nc)).streams.delete(streamNameFor(deadPrefix)).catch(() => false);
      await nc.close();
    }
  });
});
