import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_NAMES, type AppName, loadHttpTimeouts } from '#libs/config';
import { composeEnvironment } from './compose.js';
import { type Container, type KubernetesObject, named, ofKind } from './kubernetes-objects.js';
import { DEPLOY, rendered } from './manifests.js';
import { OVERLAYS } from './platform.js';

const SECRET_NAME = 'signup-platform-secrets';
/** How long ingress-nginx keeps an idle connection to an app (its upstream-keepalive-timeout, 60 s by default). */
const INGRESS_UPSTREAM_KEEPALIVE_MS = 60_000;

/** Who reads each key of the Secret; no one else gets it. */
const SECRET_READERS: Record<string, readonly AppName[]> = {
  DATABASE_URL: ['api-gateway', 'auth-server', 'signups-service', 'webhooks-dispatcher', 'reminders-service'],
  REDIS_URL: ['api-gateway', 'auth-server', 'mcp-server'],
  ADMIN_TOKEN: ['auth-server'],
  WEBHOOK_SECRET_KEY: ['webhooks-dispatcher'],
  CONFIRMATION_TOKEN_KEY: ['signups-service'],
  TWILIO_AUTH_TOKEN: ['api-gateway', 'reminders-service'],
  EMAIL_SECRET_KEY: ['reminders-service'],
  SMTP_URL: ['reminders-service'],
  DKIM_PRIVATE_KEY: ['reminders-service'],
  OPENAI_API_KEY: ['signups-service'],
};

/** Variables docker-compose.yml gives an app that its Deployment leaves out, and why (docs/deploy.md, "Secrets"). */
const LEFT_OUT: Record<string, { apps: readonly AppName[]; because: string }> = {
  DATABASE_URL: { apps: ['mcp-server'], because: 'it owns no schema and never opens a database connection' },
  REDIS_URL: {
    apps: ['signups-service', 'webhooks-dispatcher', 'reminders-service'],
    because: 'only the edges (rate limits) and the auth-server (login limiter) use Redis',
  },
};

/** Secrets docker-compose.yml leaves unset (the feature is off there) that an app's configuration reads. */
const NOT_IN_COMPOSE: Record<string, readonly AppName[]> = {
  OPENAI_API_KEY: ['signups-service'],
};

const compose = composeEnvironment();
const RENDERED = { dev: await rendered('dev'), prod: await rendered('prod') };
const SECRETS = { dev: await rendered('dev-secrets'), prod: await rendered('prod-secrets') };

/** The Secret keys a container reads, one by one. */
function secretKeys(container: Container): string[] {
  return (container.env ?? [])
    .flatMap((variable) => (variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef.key] : []))
    .sort();
}

/** Every variable a container gets: its own and those of the ConfigMaps it takes whole. */
function environment(objects: readonly KubernetesObject[], container: Container): Set<string> {
  const fromMaps = (container.envFrom ?? []).flatMap((source) =>
    Object.keys(named(objects, 'ConfigMap', source.configMapRef!.name).data ?? {}),
  );
  return new Set([...(container.env ?? []).map((variable) => variable.name), ...fromMaps]);
}

function appContainer(objects: readonly KubernetesObject[], app: AppName): Container {
  return named(objects, 'Deployment', app).spec.template.spec.containers[0]!;
}

describe('who gets which secret', () => {
  it.each(Object.keys(SECRET_READERS))('agrees with docker-compose.yml for %s, but for the documented exceptions', (key) => {
    const inCompose = APP_NAMES.filter((app) => compose.get(app)?.has(key));
    const expected = [...inCompose, ...(NOT_IN_COMPOSE[key] ?? [])].filter((app) => !LEFT_OUT[key]?.apps.includes(app));
    expect(expected.sort()).toEqual([...SECRET_READERS[key]!].sort());
  });

  it.each(Object.entries(LEFT_OUT).map(([key, { apps, because }]) => [key, apps.join(', '), because]))(
    'leaves %s out of %s, where docker-compose.yml sets it, because %s',
    (key) => {
      expect(LEFT_OUT[key]!.apps.filter((app) => !compose.get(app)?.has(key))).toEqual([]);
    },
  );
});

describe.each(OVERLAYS)('configuration of the %s overlay', (overlay) => {
  const objects = RENDERED[overlay];

  it.each(Object.entries(SECRET_READERS))('gives %s to %j only', (key, readers) => {
    const holders = APP_NAMES.filter((app) => secretKeys(appContainer(objects, app)).includes(key));
    expect(holders.sort()).toEqual([...readers].sort());
  });

  it('reads the Secret key by key, never whole', () => {
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      const container = workload.spec.template.spec.containers[0]!;
      expect(container.envFrom?.filter((source) => source.secretRef) ?? []).toEqual([]);
      expect(new Set((container.env ?? []).flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []))).toEqual(
        new Set(secretKeys(container).length ? [SECRET_NAME] : []),
      );
    }
  });

  it.each(APP_NAMES)('gives %s every variable docker-compose.yml sets for it, but for the documented exceptions', (app) => {
    const required = [...compose.get(app)!].filter((variable) => !LEFT_OUT[variable]?.apps.includes(app));
    const missing = required.filter((variable) => !environment(objects, appContainer(objects, app)).has(variable));
    expect(missing).toEqual([]);
  });

  it('gives the migration Jobs what docker-compose.yml gives its migrate service: DATABASE_URL, from the Secret', () => {
    for (const job of ofKind(objects, 'Job')) {
      const container = job.spec.template.spec.containers[0]!;
      expect([...environment(objects, container)]).toEqual([...compose.get('migrate')!]);
      expect(secretKeys(container)).toEqual(['DATABASE_URL']);
    }
  });

  it('keeps secrets out of the ConfigMaps', () => {
    const keys = ofKind(objects, 'ConfigMap').flatMap((map) => Object.keys(map.data ?? {}));
    expect(keys.filter((key) => key in SECRET_READERS)).toEqual([]);
  });

  const platformConfig = () => ofKind(objects, 'ConfigMap').find((map) => map.metadata.name.startsWith('signup-platform-config-'));

  it(`logs at ${overlay === 'dev' ? 'debug' : 'info'} level`, () => {
    expect(platformConfig()?.data?.LOG_LEVEL).toBe(overlay === 'dev' ? 'debug' : 'info');
  });

  it('sets HTTP timeouts the apps accept, keeping idle connections open longer than the ingress controller does', () => {
    const data = platformConfig()?.data ?? {};
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining(['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS']),
    );
    expect(loadHttpTimeouts(data).keepAliveTimeoutMs).toBeGreaterThan(INGRESS_UPSTREAM_KEEPALIVE_MS);
  });

  it('builds the Secret, from secrets.env.example, with exactly the keys the workloads read', () => {
    const [secret, ...others] = SECRETS[overlay];
    expect(others).toEqual([]);
    expect(secret).toMatchObject({ kind: 'Secret', metadata: { name: SECRET_NAME, namespace: `signup-${overlay}` } });
    const read = new Set(
      [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')].flatMap((workload) =>
        secretKeys(workload.spec.template.spec.containers[0]!),
      ),
    );
    expect(Object.keys(ofKind([secret!], 'Secret')[0]!.data ?? {}).sort()).toEqual([...read].sort());
  });
});

it("keeps the operators' secrets.env files out of git", () => {
  expect(readFileSync(join(DEPLOY, '.gitignore'), 'utf8').split('\n')).toContain('secrets.env');
});
