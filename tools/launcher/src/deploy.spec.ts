import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { APP_NAMES, DEFAULT_PORTS } from '#libs/config';

const ROOT = join(import.meta.dirname, '../../..');

interface ComposeService {
  build?: { context: string; target?: string };
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
}

const compose = YAML.parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** Dockerfile stages by name, with their instructions. */
const stages = new Map<string, string[]>();
let current = '';
for (const line of dockerfile.split('\n')) {
  const from = /^FROM \S+ AS (\S+)$/.exec(line);
  if (from) stages.set((current = from[1]!), []);
  else if (current && /^[A-Z]+ /.test(line)) stages.get(current)!.push(line);
}

describe('docker-compose.yml', () => {
  it('runs Postgres, NATS with JetStream and Redis with health checks', () => {
    expect(compose.services.postgres?.healthcheck).toBeDefined();
    expect((compose.services.nats as { command?: string[] }).command).toContain('-js');
    expect(compose.services.redis?.healthcheck).toBeDefined();
  });

  it.each(APP_NAMES)('runs %s from its own image target, on its port, after the migrations, checked by /readyz', (app) => {
    const service = compose.services[app]!;
    const port = DEFAULT_PORTS[app];
    expect(service.build).toEqual({ context: '.', target: app });
    expect(service.ports).toEqual([`${port}:${port}`]);
    expect(service.environment).toMatchObject({ DATABASE_URL: expect.any(String), NATS_URL: 'nats://nats:4222', REDIS_URL: 'redis://redis:6379' });
    expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    expect(service.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
  });

  it('gives the admin token to the auth-server and the admin tool only, and has no default for it', () => {
    const holders = Object.entries(compose.services).filter(([, service]) => JSON.stringify(service).includes('ADMIN_TOKEN')).map(([name]) => name);
    expect(holders.sort()).toEqual(['admin', 'auth-server']);
    expect(compose.services['auth-server']!.environment!.ADMIN_TOKEN).toBe('${ADMIN_TOKEN:?set ADMIN_TOKEN}');
  });

  it('gives the webhook sealing key to the webhooks-dispatcher only, and has no default for it', () => {
    const holders = Object.entries(compose.services).filter(([, service]) => JSON.stringify(service).includes('WEBHOOK_SECRET_KEY')).map(([name]) => name);
    expect(holders).toEqual(['webhooks-dispatcher']);
    expect(compose.services['webhooks-dispatcher']!.environment!.WEBHOOK_SECRET_KEY).toBe('${WEBHOOK_SECRET_KEY:?set WEBHOOK_SECRET_KEY}');
  });

  it('gives the Twilio auth token to the api-gateway (inbound signatures) and the reminders-service only', () => {
    const holders = Object.entries(compose.services).filter(([, service]) => JSON.stringify(service).includes('TWILIO_AUTH_TOKEN')).map(([name]) => name);
    expect(holders.sort()).toEqual(['api-gateway', 'reminders-service']);
  });

  it('builds every target it names', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build?.target) expect({ name, target: stages.has(service.build.target) }).toEqual({ name, target: true });
    }
  });
});

describe('Dockerfile', () => {
  it.each(APP_NAMES)('has a %s target that exposes its port and runs its built entry point', (app) => {
    const lines = stages.get(app)!;
    expect(lines).toContain(`EXPOSE ${DEFAULT_PORTS[app]}`);
    expect(lines).toContain(`CMD ["node", "dist/apps/${app}/src/main.js"]`);
    expect(existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
  });

  it('runs as an unprivileged user, listening on all interfaces', () => {
    expect(stages.get('runtime')).toEqual(expect.arrayContaining(['USER node', 'ENV NODE_ENV=production HOST=0.0.0.0']));
  });

  it('has a migration target running the migration command', () => {
    expect(stages.get('migrate')).toContain('ENTRYPOINT ["node", "dist/tools/launcher/src/migrate.js"]');
    expect(existsSync(join(ROOT, 'tools/launcher/src/migrate.ts'))).toBe(true);
  });
});
