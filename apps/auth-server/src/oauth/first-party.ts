import { DASHBOARD_CALLBACK_PATH, DASHBOARD_CLIENT_ID } from '#libs/contracts';

/** The authorization request parameter naming the organization a first-party client's sign-in acts for. */
export const ORGANIZATION_PARAM = 'organization';

/**
 * Our own clients, configured here instead of registered, by id with the name the connected-apps
 * page shows. Registered clients never take these ids (registration makes `cli_…` ones).
 */
const FIRST_PARTY_NAMES: ReadonlyMap<string, string> = new Map([[DASHBOARD_CLIENT_ID, 'Dashboard']]);

export function isFirstParty(clientId: unknown): boolean {
  return typeof clientId === 'string' && FIRST_PARTY_NAMES.has(clientId);
}

export function firstPartyName(clientId: string): string | undefined {
  return FIRST_PARTY_NAMES.get(clientId);
}

/** The dashboard's callback: on the api-gateway, at the origin of PUBLIC_BASE_URL (which ends with `/api/v1`). */
export function dashboardRedirectUri(publicBaseUrl: string): string {
  return `${new URL(publicBaseUrl).origin}${DASHBOARD_CALLBACK_PATH}`;
}

/** oidc-provider's static clients: the dashboard, a public client (PKCE, as every client) redirecting only to its callback. */
export function firstPartyClients(publicBaseUrl: string): Record<string, unknown>[] {
  return [
    {
      client_id: DASHBOARD_CLIENT_ID,
      client_name: firstPartyName(DASHBOARD_CLIENT_ID),
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [dashboardRedirectUri(publicBaseUrl)],
    },
  ];
}

/**
 * The organization a first-party client's authorization acts for, among the user's (oldest
 * membership first): the one the request's `organization` names when it is one of them, else the
 * oldest (the account pages' default).
 */
export function requestedOrganization(organizationIds: string[], requested: unknown): string | undefined {
  return organizationIds.find((id) => id === requested) ?? organizationIds[0];
}
