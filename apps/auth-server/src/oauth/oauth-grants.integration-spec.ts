import { eventually } from '#libs/testing';
import { bootAuthServer, jwtPayload, obtainTokens } from '../testing/oauth-flow.js';
import { OAuthGrants } from './oauth-grants.js';

const server = bootAuthServer('auth_oauth_grants', 'oauth-grants-admin-token');

const heard = server.collect(['auth.oauth.grant_revoked']);

async function connectedUser() {
  const { user, org, email } = await server.createUser('Grants org', 'grants');
  const tokens = await obtainTokens(server, email);
  return {
    userId: user.id,
    organizationId: org.id,
    clientId: tokens.clientId,
    refreshToken: tokens.refreshToken,
    grantId: jwtPayload(tokens.accessToken).grant_id as string,
  };
}

/** Revokes the grant of a refresh token at /oauth/revoke (RFC 7009: 200 and no body). */
function revoke(app: { clientId: string; refreshToken: string }): Promise<Response> {
  return fetch(`${server.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: app.refreshToken, client_id: app.clientId }).toString(),
  });
}

const grantOrganizations = (grantId: string) =>
  server
    .dataSource()
    .query<{ organization_id: string; days: number }[]>(
      `SELECT "organization_id", round(extract(epoch FROM "expires_at" - now()) / 86400)::int AS "days" FROM "auth"."oauth_grant_organizations" WHERE "grant_id" = $1`,
      [grantId],
    );

describe('OAuth grant records', () => {
  it("keeps the organization chosen at consent in its own table, for the grant's 30 days, and nothing in the provider's store", async () => {
    const app = await connectedUser();
    expect(await grantOrganizations(app.grantId)).toEqual([{ organization_id: app.organizationId, days: 30 }]);
    expect(
      await server
        .dataSource()
        .query(`SELECT "model" FROM "auth"."oauth_store" WHERE "model" IN ('GrantOrganization', 'RevokedGrant', 'DevicePoll')`),
    ).toEqual([]);
  });

  it('lists a connected app with the organization its grant row names', async () => {
    const app = await connectedUser();
    const grants = server.running.app.get(OAuthGrants);
    expect(await grants.connectedApps(app.userId)).toMatchObject([
      { grantId: app.grantId, clientId: app.clientId, organizationId: app.organizationId },
    ]);
    await server
      .dataSource()
      .query(`UPDATE "auth"."oauth_grant_organizations" SET "organization_id" = 'org_elsewhere' WHERE "grant_id" = $1`, [app.grantId]);
    expect(await grants.connectedApps(app.userId)).toMatchObject([{ grantId: app.grantId, organizationId: 'org_elsewhere' }]);
  });

  it("records a revoked grant in its own table for an access token's lifetime and five minutes, and drops its organization", async () => {
    const app = await connectedUser();
    expect((await revoke(app)).status).toBe(200);
    await eventually(() => expect(heard.map((e) => (e.data as { grantId: string }).grantId)).toContain(app.grantId));
    const revoked = await server
      .dataSource()
      .query<{ lifetime: number }[]>(
        `SELECT round(extract(epoch FROM "expires_at" - "revoked_at"))::int AS "lifetime" FROM "auth"."oauth_revoked_grants" WHERE "grant_id" = $1`,
        [app.grantId],
      );
    expect(revoked).toEqual([{ lifetime: 3900 }]);
    expect(await grantOrganizations(app.grantId)).toEqual([]);
    expect(await server.running.app.get(OAuthGrants).revokedGrantIds()).toContain(app.grantId);
  });

  it('no longer counts a revoked grant once its record has expired', async () => {
    const app = await connectedUser();
    expect((await revoke(app)).status).toBe(200);
    const grants = server.running.app.get(OAuthGrants);
    await eventually(async () => expect(await grants.revokedGrantIds()).toContain(app.grantId));
    await server
      .dataSource()
      .query(`UPDATE "auth"."oauth_revoked_grants" SET "expires_at" = now() - interval '1 second' WHERE "grant_id" = $1`, [app.grantId]);
    expect(await grants.revokedGrantIds()).not.toContain(app.grantId);
  });
});
