import { APP_NAMES } from '#libs/config';
import { BUS_ACCESS, EVENT_TYPES, eventSubject, SUBJECTS, subjectsOf } from '#libs/contracts';
import { natsConnectionOptions } from './nats-bus.js';
import { type BusScope, deployedNatsUsers, natsAuthorizationConfig, natsPermissionsFor } from './nats-permissions.js';

const scope: BusScope = { prefix: 'p.', streamName: 'EVENTS_p' };
const isJetStream = (subject: string) => subject.startsWith('$JS.');
const unprefixed = (subjects: string[]) =>
  subjects
    .filter((s) => s.startsWith(scope.prefix))
    .map((s) => s.slice(scope.prefix.length))
    .sort();

describe('natsPermissionsFor', () => {
  it.each(APP_NAMES)('lets %s publish exactly the subjects it calls and the events it emits', (app) => {
    const access = BUS_ACCESS[app];
    const { publish } = natsPermissionsFor(app, scope);
    const expected = [...access.calls, ...access.emits.map(eventSubject)].sort();
    expect(unprefixed(publish.allow)).toEqual(expected);
    expect(publish.allow.filter((s) => !s.startsWith(scope.prefix)).every(isJetStream)).toBe(true);
  });

  it.each(APP_NAMES)('lets %s subscribe to exactly the subjects it serves, the events it follows and its inboxes', (app) => {
    const access = BUS_ACCESS[app];
    const { subscribe, allow_responses } = natsPermissionsFor(app, scope);
    const served = 'serves' in access ? subjectsOf(access.serves) : [];
    expect(unprefixed(subscribe.allow)).toEqual([...served, ...access.follows.map(eventSubject)].sort());
    expect(subscribe.allow.filter((s) => !s.startsWith(scope.prefix))).toEqual([`_INBOX_${app}.>`]);
    expect(allow_responses ?? false).toBe(served.length > 0);
  });

  it("gives the JetStream API of the app's own stream and durables only", () => {
    const { publish } = natsPermissionsFor('reminders-service', scope);
    const api = publish.allow.filter(isJetStream);
    expect(api.every((s) => s === '$JS.API.INFO' || s.includes('.EVENTS_p'))).toBe(true);
    const durables = api.filter((s) => s.includes('CONSUMER') || s.startsWith('$JS.ACK'));
    expect(durables.every((s) => s.includes('.reminders-contacts') || s.includes('.reminders-mail'))).toBe(true);
    expect(durables.some((s) => s.includes('.reminders-mail'))).toBe(true);
    expect(natsPermissionsFor('api-gateway', scope).publish.allow.filter((s) => s.includes('CONSUMER'))).toEqual([]);
  });

  it("lets only the gateway ask for a signup's reminder status, which the reminders-service answers", () => {
    const publishers = APP_NAMES.filter((app) => natsPermissionsFor(app, scope).publish.allow.includes('p.reminders.status.get'));
    const subscribers = APP_NAMES.filter((app) => natsPermissionsFor(app, scope).subscribe.allow.includes('p.reminders.status.get'));
    expect([publishers, subscribers]).toEqual([['api-gateway'], ['reminders-service']]);
  });

  it('has every subject served by exactly one app, which is its owner', () => {
    for (const subject of SUBJECTS) {
      const servers = APP_NAMES.filter((app) => natsPermissionsFor(app, scope).subscribe.allow.includes(`p.${subject}`));
      expect([subject, servers.map((app) => ('serves' in BUS_ACCESS[app] ? BUS_ACCESS[app].serves : undefined))]).toEqual([
        subject,
        [subject.split('.')[0]],
      ]);
    }
  });

  it('has every event that an app consumes or follows emitted by exactly one app, and no app calling its own subjects', () => {
    const emitters = (type: string) => APP_NAMES.filter((app) => (BUS_ACCESS[app].emits as readonly string[]).includes(type));
    for (const app of APP_NAMES) {
      const access = BUS_ACCESS[app];
      const read = [...access.follows, ...access.consumes.flatMap((c) => c.types)];
      for (const type of read) expect([type, emitters(type).length]).toEqual([type, 1]);
      if ('serves' in access) expect(access.calls.filter((s) => s.startsWith(`${access.serves}.`))).toEqual([]);
    }
    for (const type of EVENT_TYPES) expect([type, emitters(type).length <= 1]).toEqual([type, true]);
  });
});

describe('natsAuthorizationConfig', () => {
  it("renders one user per app with its permissions, passwords read from the server's environment", () => {
    const config = natsAuthorizationConfig(deployedNatsUsers(), { prefix: '', streamName: 'EVENTS' });
    expect(config).toContain('{ user: "signups-service", password: $SIGNUPS_SERVICE_NATS_PASSWORD,');
    expect(config.match(/user: /g)).toHaveLength(APP_NAMES.length);
    expect(config).toContain('"signups.participants.list"');
    expect(config).toContain('allow_responses: true');
  });

  it('quotes a literal password', () => {
    expect(natsAuthorizationConfig([{ user: 'ops', password: 'a"b' }], { prefix: '', streamName: 'EVENTS' })).toContain(
      '{ user: "ops", password: "a\\"b" }',
    );
  });
});

describe('natsConnectionOptions', () => {
  const base = { name: 'signups-service' };

  it('is anonymous and plain without credentials, CA or tls://', () => {
    const options = natsConnectionOptions({ ...base, url: 'nats://127.0.0.1:4222' });
    expect(options).not.toHaveProperty('user');
    expect(options).not.toHaveProperty('tls');
  });

  it("logs in with the app's credentials and requires TLS for a tls:// url or a CA file", () => {
    expect(natsConnectionOptions({ ...base, url: 'tls://nats:4222', credentials: { user: 'u', password: 'p' } })).toMatchObject({
      servers: ['nats://nats:4222'],
      user: 'u',
      pass: 'p',
      tls: {},
    });
    expect(natsConnectionOptions({ ...base, url: 'nats://nats:4222', tls: { caFile: '/ca.pem' } })).toMatchObject({
      tls: { caFile: '/ca.pem' },
    });
  });
});
