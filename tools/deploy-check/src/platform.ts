/** What the apps' code needs from the manifests, which the policy checks compare against (docs/deploy.md explains each). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_NAMES, type AppName } from '#libs/config';
import { ROOT } from './manifests.js';

export const OVERLAYS = ['dev', 'prod'] as const;

/** Reached from the internet through the ingress controller, each on its own host. */
export const EDGE_APPS: readonly AppName[] = ['api-gateway', 'auth-server', 'mcp-server'];

/** The apps that own a Postgres schema: those with migrations (the mcp-server has none). */
export const SCHEMA_APPS: readonly AppName[] = APP_NAMES.filter((app) => existsSync(join(ROOT, 'apps', app, 'src', 'migrations')));

/** Rate limits (api-gateway, mcp-server) and the login limiter (auth-server) count in Redis. */
export const REDIS_APPS: readonly AppName[] = ['api-gateway', 'auth-server', 'mcp-server'];

/** HTTPS to the AI provider, to customers' webhook URLs and to the SMS provider. */
export const THIRD_PARTY_APPS: readonly AppName[] = ['signups-service', 'webhooks-dispatcher', 'reminders-service'];

/** Where the dependencies run, by namespace name (the NetworkPolicies select them so). */
export const NAMESPACES = {
  ingress: 'ingress-nginx',
  monitoring: 'monitoring',
  nats: 'nats',
  postgres: 'postgres',
  redis: 'redis',
  dns: 'kube-system',
} as const;

/** The image of an app's pods, or `migrate` for the migration Jobs, without registry and tag. */
export function imageName(image: string): { repository: string; tag: string | undefined } {
  const match = /^(?:.+\/)?(signup-platform\/[a-z-]+)(?::([\w.-]+))?$/.exec(image);
  if (!match) throw new Error(`Unexpected image ${image}`);
  return { repository: match[1]!, tag: match[2] };
}
