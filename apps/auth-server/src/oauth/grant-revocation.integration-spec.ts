import { createLocalJWKSet, jwtVerify } from 'jose';
import { eventually } from '#libs/testing';
import { bootAuthServer, type IssuedTokens, jwtPayload, obtainTokens, PUBLIC_BASE_URL } from '../testing/oauth-flow.js';

const server = bootAuthServer('auth_grant_revocation', 'revocation-admin-token');

const heard = server.collect(['auth.oauth.grant_revoked']);

let users = 0;
async function tokensOfNewUser(): Promise<IssuedTokens & { grantId: string; organizationId: string }> {
  const { email, org } = await server.createUser('Revocation org', `revoke${++users}`);
  const tokens = await obtainTokens(server, email);
  return { ...tokens, grantId: jwtPayload(tokens.accessToken).grant_id as string, organizationId: org.id };
}

function refresh(tokens: IssuedTokens, refreshToken = tokens.refreshToken) {
  return server.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: tokens.clientId, refresh_token: refreshToken });
}

function revoke(form: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function expectRevocationAnnounced(grantId: string, organizationId: string): Promise<void> {
  await eventually(() => expect(heard.filter((e) => (e.data as { grantId: string }).grantId === grantId)).toHaveLength(1));
  expect(heard.find((e) => (e.data as { grantId: string }).grantId === grantId)).toMatchObject({
    type: 'auth.oauth.grant_revoked',
    orgid: organizationId,
    livemode: true,
    data: { grantId, organizationId, livemode: true },
  });
  expect((await server.bus.request('auth.oauth.revocations', {})).grantIds).toContain(grantId);
}

describe('access tokens for resource servers', () => {
  it('verify under the key set served on auth.oauth.jwks and carry the grant and organization', async () => {
    const tokens = await tokensOfNewUser();
    const jwks = await server.bus.request('auth.oauth.jwks', {});
    expect(jwks.keys.every((key) => key.d === undefined)).toBe(true);
    expect(tokens.accessToken).toMatch(/^oat_ey/);
    const { payload, protectedHeader } = await jwtVerify(tokens.accessToken.slice('oat_'.length), createLocalJWKSet(jwks), {
      issuer: server.url,
      audience: PUBLIC_BASE_URL,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ org_id: tokens.organizationId, grant_id: tokens.grantId, client_id: tokens.clientId });
  });

  it('answer the organization tier on auth.orgs.tier, and invalid_credentials for an unknown organization', async () => {
    const tokens = await tokensOfNewUser();
    expect(await server.bus.request('auth.orgs.tier', { organizationId: tokens.organizationId })).toEqual({ tier: 'free' });
    await expect(server.bus.request('auth.orgs.tier', { organizationId: 'org_nope' })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
  });
});

describe('grant revocation', () => {
  it('revokes the grant when a rotated refresh token is reused, records it and announces it once', async () => {
    const tokens = await tokensOfNewUser();
    const rotated = await refresh(tokens);
    expect(rotated.status).toBe(200);
    const reused = await refresh(tokens);
    expect(reused.body.error).toBe('invalid_grant');
    await expectRevocationAnnounced(tokens.grantId, tokens.organizationId);
    expect((await refresh(tokens, rotated.body.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('revokes the grant of an access token posted to /oauth/revoke (RFC 7009)', async () => {
    const tokens = await tokensOfNewUser();
    const res = await revoke({ token: tokens.accessToken, token_type_hint: 'access_token', client_id: tokens.clientId });
    expect(res.status).toBe(200);
    await expectRevocationAnnounced(tokens.grantId, tokens.organizationId);
    expect((await refresh(tokens)).body.error).toBe('invalid_grant');
  });

  it('revokes the grant of a refresh token posted to /oauth/revoke', async () => {
    const tokens = await tokensOfNewUser();
    const res = await revoke({ token: tokens.refreshToken, client_id: tokens.clientId });
    expect(res.status).toBe(200);
    await expectRevocationAnnounced(tokens.grantId, tokens.organizationId);
  });

  it('ignores an access token posted to /oauth/revoke by another client', async () => {
    const tokens = await tokensOfNewUser();
    const other = await tokensOfNewUser();
    const res = await revoke({ token: tokens.accessToken, client_id: other.clientId });
    expect(res.status).toBe(200);
    expect((await refresh(tokens)).status).toBe(200);
    expect((await server.bus.request('auth.oauth.revocations', {})).grantIds).not.toContain(tokens.grantId);
  });
});
