import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#libs/runtime';
import type { GatewayConfig } from '../gateway.config.js';
import { AuthClient } from './auth-client.js';
import { DashboardService } from './dashboard.service.js';
import { MemorySessionStore, RedisSessionStore } from './session-store.js';
import { DashboardSessions } from './sessions.js';

/** The dashboard's plumbing for this gateway: sessions in Redis when the app has one (services mode), in memory otherwise. */
export async function dashboardService(context: AppContext<GatewayConfig>, fastify: () => FastifyInstance): Promise<DashboardService> {
  const { config } = context;
  const store = context.redisUrl ? await RedisSessionStore.connect(context.redisUrl) : new MemorySessionStore();
  const origin = new URL(config.publicBaseUrl).origin;
  return new DashboardService(
    new DashboardSessions(store, origin.startsWith('https:')),
    new AuthClient(config.authUrl, config.publicBaseUrl),
    store,
    fastify,
    origin,
    new URL(config.authUrl).origin,
    context.logger,
  );
}
