import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { APP_NAMES, type AppName } from '#libs/config';
import { BUS_ACCESS, EVENT_TYPES } from '#libs/contracts';
import { named, ofKind } from './kubernetes-objects.js';
import { DEPLOY, rendered, ROOT } from './manifests.js';
import { COMPOSE_AUTHORIZATION, composeAuthorization, helmAuthorization, NATS_VALUES } from './nats-config.js';
import { OVERLAYS } from './platform.js';

const passwordVariable = (app: AppName) => `${app.toUpperCase().replaceAll('-', '_')}_NATS_PASSWORD`;

/** The production code of a folder (no tests, no test fixtures). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
    return name.endsWith('.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(name) && !name.endsWith('-testing.ts') ? [path] : [];
  });
}

function literals(files: string[], pattern: RegExp): string[] {
  return [
    ...new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((match) => match[1] ?? match[2]!))),
  ].sort();
}

/** libs/edge verifies credentials for the edges: its calls and follows count as theirs. */
const codeOf = (app: AppName) => [
  ...sources(join(ROOT, 'apps', app, 'src')),
  ...(app === 'api-gateway' || app === 'mcp-server' ? sources(join(ROOT, 'libs/edge/src')) : []),
];

describe('the bus catalog against the code', () => {
  it.each(APP_NAMES)('lists exactly the subjects %s requests (by name, or as the subject of an MCP tool)', (app) => {
    const requested = literals(codeOf(app), /\.request(?:Json)?\(\s*'([a-z_.]+)'|\bsubject: '([a-z_.]+)'/g);
    expect(requested).toEqual([...BUS_ACCESS[app].calls].sort());
  });

  it.each(APP_NAMES)('lists every event type %s emits by name', (app) => {
    const named = literals(codeOf(app), /\.emit\(\s*'([a-z_.]+)'/g);
    expect(BUS_ACCESS[app].emits).toEqual(expect.arrayContaining(named));
  });

  it('gives the signups-service every signup, participant, slot and item event (it emits them by variable)', () => {
    const domain = EVENT_TYPES.filter((type) => /^(signup|participant|slot|item)\./.test(type));
    expect([...BUS_ACCESS['signups-service'].emits].sort()).toEqual([...domain].sort());
  });

  it.each(APP_NAMES)('lists the events %s follows', (app) => {
    const follows = literals(codeOf(app), /\.broadcast\(\s*\[([^\]]*)\]/g).flatMap((list) =>
      [...list.matchAll(/'([a-z_.]+)'/g)].map((m) => m[1]!),
    );
    expect(follows.sort()).toEqual([...BUS_ACCESS[app].follows].sort());
  });
});

describe('the generated NATS authorization', () => {
  it('of docker-compose is up to date with the bus catalog (nx run deploy-check:nats-config)', () => {
    expect(readFileSync(join(ROOT, COMPOSE_AUTHORIZATION), 'utf8')).toBe(composeAuthorization());
  });

  it('of the NATS chart values is up to date with the bus catalog (nx run deploy-check:nats-config)', () => {
    const values = YAML.parse(readFileSync(join(ROOT, NATS_VALUES), 'utf8')) as { config: { merge: { authorization: unknown } } };
    expect(values.config.merge.authorization).toEqual(helmAuthorization());
  });
});

describe('the NATS chart values', () => {
  const values = YAML.parse(readFileSync(join(ROOT, NATS_VALUES), 'utf8')) as {
    config: { nats: { tls: { enabled: boolean; secretName: string } } };
    container: { env: Record<string, { valueFrom: { secretKeyRef: { name: string; key: string } } }> };
  };

  it('require TLS from clients', () => {
    expect(values.config.nats.tls).toEqual({ enabled: true, secretName: 'nats-server-tls' });
  });

  it.each(APP_NAMES)('give the server the password of %s from a Secret', (app) => {
    expect(values.container.env[passwordVariable(app)]).toEqual({
      valueFrom: { secretKeyRef: { name: 'nats-app-credentials', key: passwordVariable(app) } },
    });
  });
});

const RENDERED = { dev: await rendered('dev'), prod: await rendered('prod') };

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = RENDERED[overlay];
  const config = ofKind(objects, 'ConfigMap').find((map) => map.metadata.name.startsWith('signup-platform-config-'))!;
  const example = readFileSync(join(DEPLOY, 'overlays', overlay, 'secrets', 'secrets.env.example'), 'utf8');

  it('connects over TLS, checking the server against the CA file', () => {
    expect(config.data!.NATS_URL).toMatch(/^tls:\/\//);
    expect(config.data!.NATS_CA_FILE).toBe('/etc/nats-ca/ca.crt');
  });

  it.each(APP_NAMES)('logs %s in as its own NATS user, its password from the Secret, its CA from nats-ca', (app) => {
    const pod = named(objects, 'Deployment', app).spec.template;
    const container = pod.spec.containers[0]!;
    const env = Object.fromEntries((container.env ?? []).map((v) => [v.name, v]));
    expect(env.NATS_USER).toEqual({ name: 'NATS_USER', value: app });
    expect(env.NATS_PASSWORD?.valueFrom?.secretKeyRef).toEqual({ name: 'signup-platform-secrets', key: passwordVariable(app) });
    expect(example).toContain(`\n${passwordVariable(app)}=`);
    const mount = container.volumeMounts?.find((m) => m.mountPath === '/etc/nats-ca');
    expect(pod.spec.volumes?.find((v) => v.name === mount?.name)?.secret).toEqual({
      secretName: 'nats-ca',
      items: [{ key: 'ca.crt', path: 'ca.crt' }],
    });
  });

  it("gives no app another app's NATS password", () => {
    for (const app of APP_NAMES) {
      const keys = (named(objects, 'Deployment', app).spec.template.spec.containers[0]!.env ?? []).map(
        (v) => v.valueFrom?.secretKeyRef?.key ?? '',
      );
      expect(keys.filter((key) => key.endsWith('_NATS_PASSWORD'))).toEqual([passwordVariable(app)]);
    }
  });
});
