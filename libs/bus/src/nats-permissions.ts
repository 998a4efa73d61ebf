import { APP_NAMES, type AppName } from '#libs/config';
import { type BusAccess, busAccessOf, eventSubject, subjectsOf } from '#libs/contracts';

/** Where an app's bus lives: the subject prefix (NATS_PREFIX) and the event stream's name. */
export interface BusScope {
  prefix: string;
  streamName: string;
}

/** One nats-server user's permissions, in the server's own terms. */
export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** Lets a serving app answer on the reply subject of a request it received, and nothing else there. */
  allow_responses?: boolean;
}

/**
 * The prefix of a connection's reply subjects (core requests and the JetStream API): one per
 * app, so an app may read the replies to its own requests and to nobody else's.
 */
export function inboxPrefixOf(name: string): string {
  return `_INBOX_${name.replaceAll(/[^A-Za-z0-9_-]/g, '_')}`;
}

function sorted(subjects: Iterable<string>): string[] {
  return [...new Set(subjects)].sort();
}

/**
 * The NATS permissions of an app, derived from its BusAccess: publish to the subjects it calls
 * and the events it emits, subscribe to the subjects it serves and the events it follows, reply
 * to requests it received, and of the JetStream API only its own stream and durables.
 */
export function natsPermissionsOf(access: BusAccess, { prefix, streamName }: BusScope, inboxPrefix: string): NatsPermissions {
  const publish = new Set<string>();
  const subscribe = new Set<string>([`${inboxPrefix}.>`]);
  const api = (operation: string) => publish.add(`$JS.API.${operation}`);

  // Every app ensures the stream at connect (NatsBus.connect).
  api('INFO');
  api(`STREAM.INFO.${streamName}`);
  api(`STREAM.CREATE.${streamName}`);
  api(`STREAM.UPDATE.${streamName}`);

  if (access.serves) for (const subject of subjectsOf(access.serves)) subscribe.add(`${prefix}${subject}`);
  for (const subject of access.calls) publish.add(`${prefix}${subject}`);
  for (const type of access.emits) publish.add(`${prefix}${eventSubject(type)}`);
  for (const type of access.follows) subscribe.add(`${prefix}${eventSubject(type)}`);
  for (const { durable } of access.consumes) {
    api(`CONSUMER.CREATE.${streamName}.${durable}`);
    api(`CONSUMER.CREATE.${streamName}.${durable}.>`);
    api(`CONSUMER.DURABLE.CREATE.${streamName}.${durable}`);
    api(`CONSUMER.UPDATE.${streamName}.${durable}`);
    api(`CONSUMER.UPDATE.${streamName}.${durable}.>`);
    api(`CONSUMER.INFO.${streamName}.${durable}`);
    api(`CONSUMER.MSG.NEXT.${streamName}.${durable}`);
    publish.add(`$JS.ACK.${streamName}.${durable}.>`);
  }
  return {
    publish: { allow: sorted(publish) },
    subscribe: { allow: sorted(subscribe) },
    ...(access.serves && { allow_responses: true }),
  };
}

export function natsPermissionsFor(app: AppName, scope: BusScope): NatsPermissions {
  return natsPermissionsOf(busAccessOf(app), scope, inboxPrefixOf(app));
}

/** A nats-server user: an app with its password (or a `$VAR` the server reads from its environment), or a full-access operator. */
export interface NatsUser {
  user: string;
  password: string;
  /** The app whose permissions the user gets; absent for an unrestricted user (tests, operators). */
  app?: AppName;
}

function quoted(value: string): string {
  return JSON.stringify(value);
}

/** A password as the server config writes it: a `$VARIABLE` stays a reference to the server's environment. */
function passwordValue(password: string): string {
  return /^\$[A-Z_][A-Z0-9_]*$/.test(password) ? password : quoted(password);
}

function permissionsBlock(p: NatsPermissions, indent: string): string {
  const list = (subjects: string[]) => subjects.map((s) => `${indent}      ${quoted(s)}`).join('\n');
  return [
    `${indent}permissions: {`,
    `${indent}  publish: { allow: [\n${list(p.publish.allow)}\n${indent}    ] }`,
    `${indent}  subscribe: { allow: [\n${list(p.subscribe.allow)}\n${indent}    ] }`,
    ...(p.allow_responses ? [`${indent}  allow_responses: true`] : []),
    `${indent}}`,
  ].join('\n');
}

/** The nats-server `authorization { users: [...] }` block for these users, each app limited to its permissions. */
export function natsAuthorizationConfig(users: readonly NatsUser[], scope: BusScope): string {
  const entries = users.map(({ user, password, app }) => {
    const head = `    { user: ${quoted(user)}, password: ${passwordValue(password)}`;
    if (!app) return `${head} }`;
    return `${head},\n${permissionsBlock(natsPermissionsFor(app, scope), '      ')}\n    }`;
  });
  return `authorization {\n  users: [\n${entries.join('\n')}\n  ]\n}\n`;
}

/** The user name and password variable of each app in the deployed configs: the app's name and <APP>_NATS_PASSWORD. */
export function deployedNatsUsers(): NatsUser[] {
  return APP_NAMES.map((app) => ({ app, user: app, password: `$${app.toUpperCase().replaceAll('-', '_')}_NATS_PASSWORD` }));
}
