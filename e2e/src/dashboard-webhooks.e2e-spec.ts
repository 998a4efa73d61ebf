import { eventually, type Receiver, startReceiver, verifyWebhook } from '#libs/testing';
import { addUser, call, newTenant, signupBody } from './support/api.js';
import { type DashboardClient, signInToDashboard } from './support/dashboard.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const secretOf = (html: string): string => /<input id="signing-secret" readonly value="(whsec_[^"]+)" data-copy/.exec(html)![1]!;
const endpointIdOf = (html: string): string => new RegExp(`href="/app/webhooks/(${UUID})"`).exec(html)![1]!;

async function createEndpoint(dashboard: DashboardClient, fields: Record<string, string>) {
  const created = await dashboard.post('/app/webhooks', fields);
  expect(created.status).toBe(201);
  return { page: created, id: endpointIdOf(created.html), secret: secretOf(created.html) };
}

describe('the dashboard webhooks pages', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  it('creates an endpoint, shows its secret once, pauses, resumes, tests it and replays a delivery', async () => {
    const tenant = await newTenant();
    const dashboard = await signInToDashboard(tenant.user.email);
    const empty = await dashboard.get('/app/webhooks');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No endpoints yet.');

    const url = receiver.url('/dashboard');
    const { page, id, secret } = await createEndpoint(dashboard, { url, description: 'Billing <team>', 'event-all': 'on' });
    expect(page.html).toContain('It will not be shown again.');
    expect(page.html).toContain('data-copy');
    const listed = await dashboard.get('/app/webhooks');
    expect(listed.html).toContain(`href="/app/webhooks/${id}"`);
    expect(listed.html).toContain('Billing &lt;team&gt;');
    expect(listed.html).not.toContain(secret);
    expect((await dashboard.get(`/app/webhooks/${id}`)).html).not.toContain(secret);

    const paused = await dashboard.post(`/app/webhooks/${id}/pause`);
    expect(paused).toMatchObject({ status: 303, location: `/app/webhooks/${id}?done=paused` });
    const pausedPage = await dashboard.get(paused.location!);
    expect(pausedPage.html).toContain('Paused');
    expect(pausedPage.html).toContain(`action="/app/webhooks/${id}/resume"`);
    const resumed = await dashboard.post(`/app/webhooks/${id}/resume`);
    expect(resumed).toMatchObject({ status: 303, location: `/app/webhooks/${id}?done=resumed` });
    expect((await dashboard.get(resumed.location!)).html).toContain(`action="/app/webhooks/${id}/pause"`);

    const tested = await dashboard.post(`/app/webhooks/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.html).toContain('Test event delivered');
    expect(verifyWebhook(secret, receiver.received.at(-1)!)).toMatchObject({ type: 'webhook.test', data: { endpointId: id } });

    // The dashboard's token is live: a live key's event reaches the endpoint.
    const live = await tenant.newKey({ mode: 'live' });
    expect((await call('/signups', { key: live.key, body: signupBody() })).status).toBe(201);
    const history = await eventually(async () => {
      const shown = await dashboard.get(`/app/webhooks/${id}`);
      expect(shown.html).toContain('<code>signup.created</code>');
      expect(shown.html).toContain('Delivered');
      return shown.html;
    }, 10_000);
    const deliveryId = new RegExp(`action="/app/webhooks/${id}/deliveries/(${UUID})/replay"`).exec(history)![1]!;
    const before = receiver.received.length;
    const replayed = await dashboard.post(`/app/webhooks/${id}/deliveries/${deliveryId}/replay`);
    expect(replayed).toMatchObject({ status: 303, location: `/app/webhooks/${id}?done=replayed` });
    await eventually(() => expect(receiver.received.length).toBeGreaterThan(before), 10_000);
    expect(verifyWebhook(secret, receiver.received.at(-1)!)).toMatchObject({ type: 'signup.created' });

    const rotated = await dashboard.post(`/app/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(secretOf(rotated.html)).not.toBe(secret);

    const deleted = await dashboard.post(`/app/webhooks/${id}/delete`);
    expect(deleted).toMatchObject({ status: 303, location: '/app/webhooks?done=deleted' });
    expect((await dashboard.get(`/app/webhooks/${id}`)).status).toBe(404);
  });

  it('creates one endpoint when its form is sent twice (a reload of the secret page), showing the same secret', async () => {
    const dashboard = await signInToDashboard((await newTenant()).user.email);
    const form = await dashboard.get('/app/webhooks');
    const key = /name="idempotencyKey" value="([0-9a-f-]{36})"/.exec(form.html)![1]!;
    const fields = { url: receiver.url('/twice'), 'event-all': 'on', idempotencyKey: key };
    const [first, again] = [await dashboard.post('/app/webhooks', fields), await dashboard.post('/app/webhooks', fields)];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(secretOf(again.html)).toBe(secretOf(first.html));
    const listed = (await dashboard.get('/app/webhooks')).html.match(new RegExp(`href="/app/webhooks/${UUID}"`, 'g'));
    expect(listed).toHaveLength(1);
  });

  it('shows the API errors beside the fields, keeping what was entered', async () => {
    const dashboard = await signInToDashboard((await newTenant()).user.email);
    const refused = await dashboard.post('/app/webhooks', { url: 'ftp://example.com/hooks', 'event-slot.filled': 'on' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('<p class="error" id="url-error">');
    expect(refused.html).toContain('value="ftp://example.com/hooks"');
    expect(refused.html).toMatch(/name="event-slot.filled" type="checkbox" value="on" checked/);

    const none = await dashboard.post('/app/webhooks', { url: receiver.url() });
    expect(none.status).toBe(422);
    expect(none.html).toContain('<p class="error" id="eventTypes-error">');
  });

  it('explains the upgrade past the tier cap', async () => {
    const dashboard = await signInToDashboard((await newTenant('free')).user.email);
    await createEndpoint(dashboard, { url: receiver.url(), 'event-all': 'on' });
    const refused = await dashboard.post('/app/webhooks', { url: receiver.url('/second'), 'event-all': 'on' });
    expect(refused.status).toBe(402);
    expect(refused.html).toContain('An owner can change the tier of the organization.');
    expect(refused.html).toContain(`value="${receiver.url('/second')}"`);
  });

  it("keeps the endpoints from a member (they receive participants' contact details): no link, and a 403 that names the role", async () => {
    const tenant = await newTenant();
    const { id } = await createEndpoint(await signInToDashboard(tenant.user.email), { url: receiver.url(), 'event-all': 'on' });
    const member = await signInToDashboard((await addUser(tenant, 'member')).email);
    expect((await member.get('/app/signups')).html).not.toContain('href="/app/webhooks"');
    for (const page of [
      await member.get('/app/webhooks'),
      await member.get(`/app/webhooks/${id}`),
      await member.post(`/app/webhooks/${id}/pause`),
    ]) {
      expect(page.status).toBe(403);
      expect(page.html).toContain('Your role in this organization does not allow this.');
    }
  });

  it("answers 404 for another organization's endpoint", async () => {
    const owner = await signInToDashboard((await newTenant()).user.email);
    const { id } = await createEndpoint(owner, { url: receiver.url(), 'event-all': 'on' });
    const other = await signInToDashboard((await newTenant()).user.email);
    const page = await other.get(`/app/webhooks/${id}`);
    expect(page.status).toBe(404);
    expect(page.html).toContain('belongs to another organization');
    expect((await other.post(`/app/webhooks/${id}/pause`)).status).toBe(404);
  });
});
