import type { KoaContext } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { isFirstParty } from '../first-party.js';
import { OAUTH_ROUTES } from '../oauth-routes.js';
import { OAuthStoreAdapter } from '../oauth-store.adapter.js';

/**
 * A token the client obtained (a code or device code exchanged, a refresh) keeps it from being
 * swept as unused (see OAuthStoreAdapter.touchClient); anonymous requests that merely name it do not.
 * A first-party client is configuration, with no row to expire.
 */
export function touchClients(dataSource: DataSource) {
  const clients = new OAuthStoreAdapter('Client', dataSource);
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const clientId = ctx.oidc?.client?.clientId;
    if (clientId && !isFirstParty(clientId) && ctx.path === OAUTH_ROUTES.token && ctx.status === 200) await clients.touchClient(clientId);
  };
}
