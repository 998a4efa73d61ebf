import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { natsAuthorizationConfig, NatsBus, type NatsUser } from '#libs/bus';
import { APP_NAMES, type AppName } from '#libs/config';
import type { CreatedApiKey, OrganizationView, ParticipantView, Principal, RegistrationResultView, SignupView } from '#libs/contracts';
import { createLogger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { streamNameFor } from '#libs/runtime';
import { ALL_SCOPES } from '#libs/scopes';
import { eventually, type Receiver, type ServicesStack, startReceiver, startServicesStack } from '#libs/testing';
import { request, signupBody } from './support/api.js';
import { type PrivateNats, startPrivateNats } from './support/private-nats.js';
import { person } from './support/signups.js';

const prefix = `natsperm${randomBytes(3).toString('hex')}.`;
const scope = { prefix, streamName: streamNameFor(prefix) };
const variable = (app: AppName) => app.toUpperCase().replaceAll('-', '_');
const users: NatsUser[] = APP_NAMES.map((app) => ({ app, user: app, password: `nats_${randomBytes(12).toString('hex')}` }));
const passwordOf = (app: AppName) => users.find((u) => u.app === app)!.password;

/**
 * The whole stack in services mode on a NATS of this file's own that enforces the permissions
 * generated from the bus catalog, each app logged in as its own user.
 */
describe('the stack on a NATS that limits every app to its subjects', () => {
  let nats: PrivateNats;
  let stack: ServicesStack;
  let receiver: Receiver;

  const admin = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await request<T>(`${stack.info.authUrl}/admin/${path}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${stack.info.adminToken}` },
    });
    if (res.status >= 300) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const api = <T>(path: string, options: Parameters<typeof request>[1] = {}) => request<T>(`${stack.info.baseUrl}${path}`, options);

  beforeAll(async () => {
    nats = await startPrivateNats({ config: natsAuthorizationConfig(users, scope) });
    receiver = await startReceiver();
    const credentials = Object.fromEntries(
      APP_NAMES.flatMap((app) => [
        [`${variable(app)}_NATS_USER`, app],
        [`${variable(app)}_NATS_PASSWORD`, passwordOf(app)],
      ]),
    );
    stack = await startServicesStack({
      label: 'natsperm',
      env: { NATS_URL: nats.url, NATS_PREFIX: prefix, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...credentials },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await nats?.close();
  });

  it('works end to end inside the permissions: requests, events to the consumers, revocations to the edges', async () => {
    const organization = await admin<OrganizationView>('organizations', { name: `Perm org ${Date.now()}`, tier: 'pro' });
    await admin('users', {
      email: `owner-${organization.id.toLowerCase()}@example.com`,
      password: 'correct horse battery staple',
      organizationId: organization.id,
    });
    const { key, id: keyId } = await admin<CreatedApiKey>('api-keys', { organizationId: organization.id, mode: 'test' });

    const hook = await api<{ id: string }>('/webhooks', {
      key,
      body: { url: receiver.url('/perm'), eventTypes: ['participant.registered'] },
    });
    expect(hook.status).toBe(200);
    const created = await api<SignupView>('/signups', { key, body: signupBody() });
    expect(created.status).toBe(201);
    expect((await api(`/signups/${created.body.id}/publish`, { key, method: 'POST' })).status).toBe(200);
    expect((await api(`/signups/${created.body.id}/participants`, { body: person() })).status).toBe(201);
    const listed = await api<{ data: ParticipantView[] }>(`/signups/${created.body.id}/participants`, { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);

    // signups-service → JetStream → webhooks-dispatcher's durable consumer → the endpoint.
    await eventually(() => expect(receiver.received.filter((r) => r.path === '/perm')).toHaveLength(1), 20_000);

    // auth-server → events.auth.apikey.revoked → the gateway's follower evicts at once.
    expect((await api('/signups', { key })).status).toBe(200);
    await admin(`api-keys/${keyId}/revoke`, undefined);
    await eventually(async () => expect((await api('/signups', { key })).status).toBe(401), 5_000);

    // Nothing any app did along the way was refused by the server.
    expect(readFileSync(stack.logFile, 'utf8')).not.toMatch(/nats refused an operation|Permissions Violation/i);
  });

  it("answers the reminders-service a participant's message context, whose edit link opens the registration page, and refuses it to the edges", async () => {
    const organization = await admin<OrganizationView>('organizations', { name: `Mail org ${Date.now()}`, tier: 'pro' });
    await admin('users', {
      email: `owner-${organization.id.toLowerCase()}@example.com`,
      password: 'correct horse battery staple',
      organizationId: organization.id,
    });
    const { key } = await admin<CreatedApiKey>('api-keys', { organizationId: organization.id, mode: 'test' });
    const created = await api<SignupView>('/signups', { key, body: signupBody() });
    await api(`/signups/${created.body.id}/publish`, { key, method: 'POST' });
    const registered = await api<RegistrationResultView>(`/signups/${created.body.id}/participants`, { body: person() });
    expect(registered.status).toBe(201);
    const token = registered.body.confirmationToken!;
    const [participant] = (await api<{ data: ParticipantView[] }>(`/signups/${created.body.id}/participants`, { key })).body.data;
    const as = (app: AppName) =>
      NatsBus.connect({
        url: nats.url,
        ...scope,
        name: app,
        logger: createLogger('test', 'silent'),
        defaultTimeoutMs: 2000,
        credentials: { user: app, password: passwordOf(app) },
      });

    const reminders = await as('reminders-service');
    try {
      const { data } = await reminders.request('signups.participants.messages', { participantIds: [participant!.id] });
      const origin = new URL(stack.info.baseUrl).origin;
      expect(data).toEqual([
        expect.objectContaining({
          signup: expect.objectContaining({ id: created.body.id, organizationId: organization.id, livemode: false, timeZone: 'UTC' }),
          participant,
          manageUrl: `${origin}/r/${token}`,
          offers: [],
        }),
      ]);
      const page = await fetch(data[0]!.manageUrl!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>Your registration</h1>');
    } finally {
      await reminders.close();
    }

    const gateway = await as('api-gateway');
    try {
      await expect(gateway.request('signups.participants.messages', { participantIds: [participant!.id] })).rejects.toBeInstanceOf(
        ProblemError,
      );
    } finally {
      await gateway.close();
    }
  });

  it("refuses a forged request for another tenant's participants from an app that does not call it", async () => {
    const forged: Principal = {
      userId: 'usr_forged',
      organizationId: 'org_victim',
      tier: 'pro',
      livemode: false,
      scopes: ALL_SCOPES,
      credentialId: 'key_forged',
      kind: 'api_key',
    };
    const bus = await NatsBus.connect({
      url: nats.url,
      ...scope,
      name: 'reminders-service',
      logger: createLogger('test', 'silent'),
      defaultTimeoutMs: 1000,
      credentials: { user: 'reminders-service', password: passwordOf('reminders-service') },
    });
    try {
      const refused = bus.request('signups.participants.list', {
        principal: forged,
        signupId: '00000000-0000-4000-8000-000000000000',
        query: {},
      });
      await expect(refused).rejects.toBeInstanceOf(ProblemError);
    } finally {
      await bus.close();
    }
    await expect(connect({ servers: nats.url })).rejects.toThrow(/Authorization/i);
  });
});
