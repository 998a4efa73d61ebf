import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { OAUTH_ROUTES } from './oauth-routes.js';

/** The provider's routes that take a body, as Nest registers them in Fastify. */
const BODY_ROUTES = new Set<string>([
  OAUTH_ROUTES.authorization,
  OAUTH_ROUTES.registration,
  OAUTH_ROUTES.token,
  OAUTH_ROUTES.device_authorization,
  OAUTH_ROUTES.code_verification,
  OAUTH_ROUTES.revocation,
]);

/**
 * Keeps the request body of the provider's routes for oidc-provider, which reads (and limits)
 * it itself. Fastify parses a stand-in instead: an empty JSON object or an empty string that
 * counts as the announced length. The raw request stays unread for `provider.callback()`.
 */
export function leaveOAuthBodiesUnread(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!BODY_ROUTES.has(request.routeOptions.url ?? '')) return payload;
    const json = (request.headers['content-type'] ?? '').toLowerCase().includes('json');
    const standIn = Readable.from(json ? [Buffer.from('{}')] : [], { objectMode: false }) as Readable & { receivedEncodedLength?: number };
    const announced = Number(request.headers['content-length']);
    standIn.receivedEncodedLength = Number.isNaN(announced) ? 0 : announced;
    return standIn;
  });
}
