import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { APP_NAMES, type AppName } from '#libs/config';
import { type CloudEvent, cloudEvent, type HandlersOf, type ServiceName, subjectsOf } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { NatsBus } from './nats-bus.js';
import { type BusScope, natsAuthorizationConfig, type NatsUser } from './nats-permissions.js';
import { eventually, principal, recordingLogger, startNatsServer, testEvent } from './test-support.js';

const scope: BusScope = { prefix: 'perm.', streamName: 'EVENTS_perm' };
const passwords = Object.fromEntries(APP_NAMES.map((app) => [app, randomBytes(12).toString('hex')])) as Record<AppName, string>;
const users: NatsUser[] = APP_NAMES.map((app) => ({ app, user: app, password: passwords[app] }));

/** Every subject of an owner answering with its subject, so a test sees which handler ran. */
function echoHandlers<O extends ServiceName>(owner: O, calls: string[]): HandlersOf<O> {
  return Object.fromEntries(
    subjectsOf(owner).map((subject) => [
      subject,
      async () => {
        calls.push(subject);
        return { data: [], next: null, subject };
      },
    ]),
  ) as unknown as HandlersOf<O>;
}

function signupCreated(): CloudEvent {
  const now = new Date().toISOString();
  return cloudEvent(
    'signups-service',
    'signup.created',
    {
      id: randomBytes(8).toString('hex'),
      slug: 's',
      title: 'T',
      description: null,
      status: 'draft',
      eventDate: now,
      timeZone: 'UTC',
      location: null,
      maxParticipants: null,
      requiresPhone: false,
      signupCloseDate: null,
      reminderHoursBefore: 24,
      waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
      seriesId: null,
      organizationId: 'org_test',
      participantCount: 0,
      publicUrl: 'https://example.test/s/s',
      livemode: false,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
      closedAt: null,
      questions: [],
    },
    { orgid: 'org_test', livemode: false },
  );
}

describe('NATS permissions enforced by the server', () => {
  let server: { url: string; close(): Promise<void> };
  const buses: NatsBus[] = [];
  const raw: NatsConnection[] = [];

  const busOf = async (app: AppName, password = passwords[app]) => {
    const bus = await NatsBus.connect({
      url: server.url,
      ...scope,
      name: app,
      logger: recordingLogger(),
      defaultTimeoutMs: 1000,
      credentials: { user: app, password },
    });
    buses.push(bus);
    return bus;
  };

  /** A plain client logged in as the app, to try what the bus never would; collects the server's refusals. */
  const rawAs = async (app: AppName) => {
    const nc = await connect({ servers: server.url, user: app, pass: passwords[app] });
    raw.push(nc);
    const refusals: string[] = [];
    void (async () => {
      for await (const status of nc.status()) if (status.type === 'error') refusals.push(String(status.error));
    })();
    return { nc, refusals };
  };

  beforeAll(async () => {
    server = await startNatsServer(natsAuthorizationConfig(users, scope));
  });

  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await Promise.all(raw.map((nc) => nc.close()));
    await server?.close();
  });

  it('refuses a connection without credentials or with a wrong password', async () => {
    await expect(connect({ servers: server.url })).rejects.toThrow(/Authorization/i);
    await expect(busOf('api-gateway', 'wrong')).rejects.toThrow(/Authorization/i);
  });

  it('lets an edge request the subjects it calls and the owner answer them', async () => {
    const calls: string[] = [];
    const signups = await busOf('signups-service');
    await signups.serve('signups', echoHandlers('signups', calls));
    const gateway = await busOf('api-gateway');
    const mcp = await busOf('mcp-server');
    await expect(
      gateway.request('signups.participants.list', { principal: principal('u'), signupId: 's', query: {} }),
    ).resolves.toMatchObject({ data: [] });
    await expect(mcp.request('signups.get', { principal: principal('u'), id: 's' })).resolves.toMatchObject({ subject: 'signups.get' });
    expect(calls).toEqual(['signups.participants.list', 'signups.get']);
  });

  it('refuses a request from an app that does not call the subject, and the handler never runs', async () => {
    const calls: string[] = [];
    const signups = await busOf('signups-service');
    await signups.serve('signups', echoHandlers('signups', calls));
    const reminders = await busOf('reminders-service');
    await expect(
      reminders.request('signups.participants.list', { principal: principal('u'), signupId: 's', query: {} }),
    ).rejects.toBeInstanceOf(ProblemError);
    const { nc, refusals } = await rawAs('webhooks-dispatcher');
    nc.publish(`${scope.prefix}signups.participants.list`, JSON.stringify({ principal: principal('u'), signupId: 's', query: {} }), {
      reply: '_INBOX.x',
    });
    await eventually(() => expect(refusals.join()).toMatch(/Permissions Violation for Publish to "perm\.signups\.participants\.list"/));
    expect(calls).toEqual([]);
  });

  it("refuses a subscription to a subject the app does not serve, so no app can take another app's requests", async () => {
    const { nc, refusals } = await rawAs('api-gateway');
    nc.subscribe(`${scope.prefix}signups.participants.list`);
    nc.subscribe(`${scope.prefix}>`);
    await eventually(() =>
      expect(refusals.join()).toMatch(/Permissions Violation for Subscription to "perm\.signups\.participants\.list"/),
    );
  });

  it("refuses a subscription to another app's inboxes, so no app reads the replies another app's requests get", async () => {
    const { nc, refusals } = await rawAs('reminders-service');
    nc.subscribe('_INBOX_api-gateway.>');
    nc.subscribe('_INBOX.>');
    await eventually(() => expect(refusals.join()).toMatch(/Permissions Violation for Subscription to "_INBOX_api-gateway\.>"/));
    await eventually(() => expect(refusals.join()).toMatch(/Permissions Violation for Subscription to "_INBOX\.>"/));
  });

  it('delivers emitted events to the durable consumers and followers allowed to read them', async () => {
    const signups = await busOf('signups-service');
    const reminders = await busOf('reminders-service');
    const gateway = await busOf('api-gateway');
    const auth = await busOf('auth-server');
    const contacts: string[] = [];
    const followed: string[] = [];
    await reminders.consume({ durable: 'reminders-contacts', types: ['signup.created'] }, async (event) => void contacts.push(event.id));
    await gateway.broadcast(['auth.apikey.revoked'], async (event) => void followed.push(event.id));
    const created = signupCreated();
    const revoked = testEvent();
    await signups.publish(created);
    await auth.publish(revoked);
    await eventually(() => expect(contacts).toEqual([created.id]));
    await eventually(() => expect(followed).toEqual([revoked.id]));
    await expect(reminders.backlog('reminders-contacts')).resolves.toMatchObject({ unacknowledged: 0 });
  });

  it('refuses to publish an event another app emits, and a durable consumer of another app', async () => {
    const reminders = await busOf('reminders-service');
    await expect(reminders.publish(signupCreated())).rejects.toThrow(/permissions violation/i);
    await expect(reminders.consume({ durable: 'webhooks-fan-out', types: ['signup.created'] }, async () => undefined)).rejects.toThrow(
      /permissions violation/i,
    );
  });
});
