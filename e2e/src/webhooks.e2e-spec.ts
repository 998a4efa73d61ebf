import { randomUUID } from 'node:crypto';
import type { DeliveryView, WebhookEndpointView, WebhookTestView, WebhookWithSecretView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { eventually, type Receiver, startReceiver, verifyWebhook } from '#libs/testing';
import { type ApiResponse, call, newTenant, setTier } from './support/api.js';
import { newSignup, person } from './support/signups.js';

/** A path id: RFC 9562 version 7, variant 10. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('webhook endpoints over REST', () => {
  let receiver: Receiver;
  let url: string;
  let received: Receiver['received'];

  beforeAll(async () => {
    receiver = await startReceiver();
    url = receiver.url();
    received = receiver.received;
  });

  afterAll(() => receiver.close());

  it('registers, lists, reads, tests, rotates and deletes an endpoint with an API key', async () => {
    const { key } = await newTenant();
    const created = await call<WebhookWithSecretView>('/webhooks', { key, body: { url, eventTypes: ['signup.created'] } });
    expect(created.status).toBe(200);
    const { endpoint, signingSecret } = created.body;
    expect(signingSecret).toMatch(/^whsec_/);

    const listed = await call<{ data: WebhookEndpointView[]; nextCursor: string | null }>('/webhooks', { key });
    expect(listed.body).toEqual({ data: [endpoint], nextCursor: null });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await call<WebhookEndpointView>(`/webhooks/${endpoint.id}`, { key })).body).toEqual(endpoint);

    const tested = await call<WebhookTestView>(`/webhooks/${endpoint.id}/test`, { key, method: 'POST' });
    expect(tested.body).toMatchObject({ delivered: true, responseStatus: 200 });
    const payload = verifyWebhook(signingSecret, received.at(-1)!);
    expect(payload).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });

    const rotated = await call<WebhookWithSecretView>(`/webhooks/${endpoint.id}/rotate`, { key, method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).not.toBe(signingSecret);

    const deleted = await call<WebhookEndpointView>(`/webhooks/${endpoint.id}`, { key, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(endpoint.id);
    expect((await call(`/webhooks/${endpoint.id}`, { key })).status).toBe(404);
  });

  it.each([
    ['a sandbox key', 'test', false],
    ['a live key', 'live', true],
  ] as const)('answers every endpoint route of %s with the endpoint in its mode', async (_name, mode, livemode) => {
    const tenant = await newTenant();
    const key = mode === 'test' ? tenant.key : (await tenant.newKey({ mode })).key;
    const created = await call<WebhookWithSecretView>('/webhooks', { key, body: { url } });
    expect(created.status).toBe(200);
    const path = `/webhooks/${created.body.endpoint.id}`;
    const answers: Record<string, ApiResponse<WebhookEndpointView>> = {
      create: { ...created, body: created.body.endpoint },
      list: await call<{ data: WebhookEndpointView[] }>('/webhooks', { key }).then((res) => ({ ...res, body: res.body.data[0]! })),
      get: await call<WebhookEndpointView>(path, { key }),
      update: await call<WebhookEndpointView>(path, { key, method: 'PATCH', body: { description: 'Billing' } }),
      pause: await call<WebhookEndpointView>(`${path}/pause`, { key, method: 'POST' }),
      resume: await call<WebhookEndpointView>(`${path}/resume`, { key, method: 'POST' }),
      rotate: await call<WebhookWithSecretView>(`${path}/rotate`, { key, method: 'POST' }).then((res) => ({
        ...res,
        body: res.body.endpoint,
      })),
      delete: await call<WebhookEndpointView>(path, { key, method: 'DELETE' }),
    };
    const seen = Object.fromEntries(Object.entries(answers).map(([route, res]) => [route, [res.status, res.body.livemode]]));
    expect(seen).toEqual(Object.fromEntries(Object.keys(answers).map((route) => [route, [200, livemode]])));
  });

  it('delivers the events of REST calls, signed, and keeps their history for replay', async () => {
    const { key } = await newTenant();
    const { endpoint, signingSecret } = (await call<WebhookWithSecretView>('/webhooks', { key, body: { url: receiver.url('/events') } }))
      .body;
    const { signup, slots } = await newSignup(key, { slots: [{ title: 'Only place', capacity: 1 }] });
    await call(`/signups/${signup.id}/participants`, { body: person([{ type: 'slot', id: slots[0]!.id }]) });
    const expected = ['signup.created', 'signup.published', 'participant.registered', 'slot.filled'];
    const mine = () =>
      received
        .filter((r) => r.headers['webhook-id'] && r.body.includes(signup.id) && !r.body.includes('"webhook.test"'))
        .map((r) => verifyWebhook(signingSecret, r) as { type: string; data: { organizationId: string; livemode: boolean } });
    await eventually(
      () =>
        expect(
          mine()
            .map((p) => p.type)
            .sort(),
        ).toEqual([...expected].sort()),
      10_000,
    );
    expect(mine().every((p) => p.data.livemode === false)).toBe(true);

    // The receiver can see a delivery a moment before the dispatcher records its answer.
    const history = await eventually(async () => {
      const listed = await call<{ data: DeliveryView[] }>(`/webhooks/${endpoint.id}/deliveries`, { key });
      expect(listed.status).toBe(200);
      expect(listed.body.data.length).toBeGreaterThanOrEqual(4);
      expect(listed.body.data.map((d) => [d.status, d.attemptCount])).toEqual(listed.body.data.map(() => ['succeeded', 1]));
      return listed;
    });
    expect(history.body.data.map((d) => d.id)).toEqual(history.body.data.map(() => expect.stringMatching(UUID_V7)));
    const replayed = await call<DeliveryView>(`/webhooks/deliveries/${history.body.data[0]!.id}/replay`, { key, method: 'POST' });
    expect(replayed.body).toMatchObject({ status: 'pending', attemptCount: 0 });
    await eventually(async () => {
      const again = await call<{ data: DeliveryView[] }>(`/webhooks/${endpoint.id}/deliveries`, { key });
      expect(again.body.data.find((d) => d.id === replayed.body.id)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    }, 10_000);
    expect(received.filter((r) => r.headers['webhook-id'] === replayed.body.eventId)).toHaveLength(2);
  });

  it('waits for a slow endpoint beyond the bus deadline when testing it', async () => {
    const { key } = await newTenant();
    receiver.answer('/slow', { status: 200, delayMs: 6000 });
    const { endpoint } = (await call<WebhookWithSecretView>('/webhooks', { key, body: { url: receiver.url('/slow') } })).body;
    const tested = await call<WebhookTestView>(`/webhooks/${endpoint.id}/test`, { key, method: 'POST' });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ delivered: true, responseStatus: 200 });
    expect(tested.body.latencyMs).toBeGreaterThanOrEqual(6000);
  });

  it('pauses and resumes through the API', async () => {
    const { key } = await newTenant();
    const { endpoint } = (await call<WebhookWithSecretView>('/webhooks', { key, body: { url } })).body;
    const paused = await call<WebhookEndpointView>(`/webhooks/${endpoint.id}/pause`, { key, method: 'POST' });
    expect(paused.body).toMatchObject({ paused: true, pausedReason: 'manual' });
    const resumed = await call<WebhookEndpointView>(`/webhooks/${endpoint.id}/resume`, { key, method: 'POST' });
    expect(resumed.body).toMatchObject({ paused: false, pausedReason: null, consecutiveFailures: 0 });
    const patched = await call<WebhookEndpointView>(`/webhooks/${endpoint.id}`, { key, method: 'PATCH', body: { description: 'Billing' } });
    expect(patched.body.description).toBe('Billing');
  });

  it('answers 402 upgrade_required past the free tier cap, and lets a pro organization have more', async () => {
    const tenant = await newTenant('free');
    expect((await call('/webhooks', { key: tenant.key, body: { url } })).status).toBe(200);
    const refused = await call<ProblemBody & { cause: unknown }>('/webhooks', { key: tenant.key, body: { url } });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: 'upgrade_required',
      cause: { kind: 'limit', featureLabel: 'Webhook endpoints', currentTier: 'free', requiredTier: 'pro', limit: 1, used: 1 },
    });
    await setTier(tenant.organization.id, 'pro');
    await eventually(async () => expect((await call('/webhooks', { key: tenant.key, body: { url } })).status).toBe(200));
  });

  it.each([
    ['no url', {}, 'url'],
    ['an unknown event type', { url: 'https://93.184.215.14/x', eventTypes: ['signup.exploded'] }, 'eventTypes'],
    ['eventTypes that is not a list', { url: 'https://93.184.215.14/x', eventTypes: 'signup.created' }, 'eventTypes'],
  ])('refuses %s with 422 validation_failed', async (_name, body, path) => {
    const { key } = await newTenant();
    const res = await call<ProblemBody>('/webhooks', { key, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path })]);
  });

  it('answers 404 for an endpoint of another organization and 422 for a malformed id', async () => {
    const owner = await newTenant();
    const { endpoint } = (await call<WebhookWithSecretView>('/webhooks', { key: owner.key, body: { url } })).body;
    const other = await newTenant();
    expect((await call(`/webhooks/${endpoint.id}`, { key: other.key })).status).toBe(404);
    expect((await call(`/webhooks/${endpoint.id}/test`, { key: other.key, method: 'POST' })).status).toBe(404);
    expect((await call(`/webhooks/${randomUUID()}`, { key: owner.key, method: 'DELETE' })).status).toBe(404);
    expect((await call('/webhooks/not-a-uuid', { key: owner.key })).status).toBe(422);
  });
});
