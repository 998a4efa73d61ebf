import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { InProcessBus } from '#libs/bus';
import type { Tier } from '#libs/config';
import { cloudEvent, type HandlersOf, type MemberRole } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { eventually } from '#libs/testing';
import { CredentialVerifier } from './credential-verifier.js';
import { OAuthTokenVerifier } from './oauth-token-verifier.js';

const ISSUER = 'http://auth.test';
const REST = 'http://api.test/api/v1';
const MCP = 'http://mcp.test/mcp';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

interface SigningKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** The auth-server side of the bus: its key set, revoked grants and tiers, with call counts. */
class AuthDouble {
  keys: JWK[] = [];
  revoked: string[] = [];
  tiers = new Map<string, Tier>();
  /** Roles by `<organizationId> <userId>`; a user not here is no member. */
  roles = new Map<string, MemberRole>();
  revocationsDown = false;
  readonly calls = { jwks: 0, revocations: 0, tier: 0, role: 0 };

  handlers(): HandlersOf<'auth'> {
    const unused = async (): Promise<never> => {
      throw new ProblemError('not_found');
    };
    return {
      'auth.apikeys.verify': unused,
      'auth.me': unused,
      'auth.orgs.get': unused,
      'auth.orgs.profile': unused,
      'auth.orgs.tier': async ({ organizationId }) => {
        this.calls.tier++;
        const tier = this.tiers.get(organizationId);
        if (!tier) throw new ProblemError('invalid_credentials');
        return { tier };
      },
      'auth.members.role': async ({ organizationId, userId }) => {
        this.calls.role++;
        const role = this.roles.get(`${organizationId} ${userId}`);
        if (!role) throw new ProblemError('invalid_credentials');
        return { role };
      },
      'auth.oauth.jwks': async () => {
        this.calls.jwks++;
        return { keys: this.keys };
      },
      'auth.oauth.revocations': async () => {
        this.calls.revocations++;
        if (this.revocationsDown) throw new ProblemError('internal_error');
        return { grantIds: this.revoked };
      },
    };
  }
}

/** The signed JWT alone, as the auth-server signs it behind the `oat_` prefix. */
function signedJwt(
  key: SigningKey,
  claims: Record<string, unknown> = {},
  options: { audience?: string; issuer?: string; typ?: string; expiresIn?: string; subject?: string } = {},
) {
  return new SignJWT({ org_id: 'org_1', grant_id: 'grant_1', client_id: 'cli_1', scope: 'signups:read unknown:scope', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid, typ: options.typ ?? 'at+jwt' })
    .setSubject(options.subject ?? 'usr_1')
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? REST)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(key.privateKey);
}

async function token(...args: Parameters<typeof signedJwt>): Promise<string> {
  return `oat_${await signedJwt(...args)}`;
}

/** A bus on which the auth double serves, with one signing key and org_1 on `tier`. */
async function authOnBus(tier: Tier): Promise<{ bus: InProcessBus; auth: AuthDouble; key: SigningKey }> {
  const bus = new InProcessBus(silent);
  const auth = new AuthDouble();
  const key = await signingKey('k1');
  auth.keys = [key.jwk];
  auth.tiers.set('org_1', tier);
  auth.roles.set('org_1 usr_1', 'owner');
  await bus.serve('auth', auth.handlers());
  return { bus, auth, key };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return (err as ProblemError).code;
  }
  return undefined;
}

describe('OAuthTokenVerifier', () => {
  let bus: InProcessBus;
  let auth: AuthDouble;
  let key: SigningKey;

  beforeEach(async () => {
    ({ bus, auth, key } = await authOnBus('pro'));
  });

  afterEach(() => bus.close());

  it('builds a live OAuth principal from the claims, keeping known scopes only', async () => {
    const principal = await new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST }).verify(await token(key));
    expect(principal).toEqual({
      userId: 'usr_1',
      organizationId: 'org_1',
      tier: 'pro',
      livemode: true,
      scopes: ['signups:read'],
      credentialId: 'grant_1',
      kind: 'oauth',
      clientId: 'cli_1',
    });
  });

  it('verifies locally: the key set and the tier are fetched once for many requests', async () => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    const jwt = await token(key);
    for (let i = 0; i < 5; i++) await verifier.verify(jwt);
    expect(auth.calls).toEqual({ jwks: 1, revocations: 1, tier: 1, role: 1 });
  });

  it("bounds the token's scopes by what the user's role allows now, and refuses the token of a user who is no member", async () => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    const everything =
      'signups:read signups:write participants:read participants:write register:write analytics:read ai:draft reminders:send';
    expect((await verifier.verify(await token(key, { scope: everything }))).scopes).toHaveLength(8);

    auth.roles.set('org_1 usr_2', 'member');
    const member = await verifier.verify(await token(key, { scope: everything }, { subject: 'usr_2' }));
    expect(member.scopes).toEqual(['signups:read', 'register:write', 'analytics:read']);

    expect(await codeOf(verifier.verify(await token(key, { scope: everything }, { subject: 'usr_3' })))).toBe('invalid_credentials');
  });

  it('refuses a token of another audience, either way round', async () => {
    const rest = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    const mcp = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: MCP });
    expect(await codeOf(rest.verify(await token(key, {}, { audience: MCP })))).toBe('invalid_credentials');
    expect(await codeOf(mcp.verify(await token(key, {}, { audience: REST })))).toBe('invalid_credentials');
    expect((await mcp.verify(await token(key, {}, { audience: MCP }))).kind).toBe('oauth');
  });

  it.each([
    ['another issuer', { issuer: 'http://evil.test' }, {}],
    ['an ID token type', { typ: 'JWT' }, {}],
    ['an expired token', { expiresIn: '-1m' }, {}],
    ['no organization', {}, { org_id: undefined }],
    ['no grant', {}, { grant_id: undefined }],
  ])('refuses %s with invalid_credentials', async (_name, options, claims) => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    expect(await codeOf(verifier.verify(await token(key, claims, options)))).toBe('invalid_credentials');
  });

  it('refuses a token signed by a key the auth-server does not publish, and garbage', async () => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    const stranger = await signingKey('k1');
    expect(await codeOf(verifier.verify(await token(stranger)))).toBe('invalid_credentials');
    expect(await codeOf(verifier.verify('eyJhbGciOiJFUzI1NiJ9.e30.c2ln'))).toBe('invalid_credentials');
    expect(await codeOf(verifier.verify('not-a-jwt'))).toBe('invalid_credentials');
    expect(await codeOf(verifier.verify('oat_not-a-jwt'))).toBe('invalid_credentials');
  });

  it('refuses a valid JWT without the oat_ prefix, or behind another prefix', async () => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    const bare = await signedJwt(key);
    expect((await verifier.verify(`oat_${bare}`)).kind).toBe('oauth');
    for (const value of [bare, `ort_${bare}`, `ac_${bare}`, `OAT_${bare}`, `oat${bare}`]) {
      expect(await codeOf(verifier.verify(value))).toBe('invalid_credentials');
    }
  });

  it('fetches the key set again for a new kid, at most every 30 seconds', async () => {
    let now = 1_000_000;
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST }, () => now);
    await verifier.verify(await token(key));
    const rotated = await signingKey('k2');
    auth.keys = [key.jwk, rotated.jwk];
    expect(await codeOf(verifier.verify(await token(rotated)))).toBe('invalid_credentials');
    now += 30_000;
    expect((await verifier.verify(await token(rotated))).userId).toBe('usr_1');
    expect(auth.calls.jwks).toBe(2);
  });

  it('refuses grants revoked before it started, and forgets them after an access token lifetime', async () => {
    let now = 1_000_000;
    auth.revoked = ['grant_1'];
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST }, () => now);
    expect(await codeOf(verifier.verify(await token(key)))).toBe('revoked_credentials');
    expect((await verifier.verify(await token(key, { grant_id: 'grant_2' }))).credentialId).toBe('grant_2');
    now += 3_900_000;
    expect(await codeOf(verifier.verify(await token(key)))).toBeUndefined();
  });

  it('refreshes the revocations every minute, catching revocations whose events it missed', async () => {
    let now = 1_000_000;
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST }, () => now);
    const jwt = await token(key);
    await verifier.verify(jwt);
    auth.revoked = ['grant_1'];
    now += 30_000;
    await verifier.verify(jwt);
    expect(auth.calls.revocations).toBe(1);
    now += 30_000;
    await verifier.verify(jwt);
    await eventually(() => expect(auth.calls.revocations).toBe(2));
    await eventually(async () => expect(await codeOf(verifier.verify(jwt))).toBe('revoked_credentials'));
  });

  it('loads the revocations again when the first load failed, never letting the token through meanwhile', async () => {
    const verifier = new OAuthTokenVerifier(bus, { issuer: ISSUER, audience: REST });
    auth.revoked = ['grant_1'];
    auth.revocationsDown = true;
    expect(await codeOf(verifier.verify(await token(key)))).toBe('internal_error');
    auth.revocationsDown = false;
    expect(await codeOf(verifier.verify(await token(key)))).toBe('revoked_credentials');
  });
});

describe('CredentialVerifier with OAuth tokens', () => {
  let bus: InProcessBus;
  let auth: AuthDouble;
  let key: SigningKey;
  let verifier: CredentialVerifier;

  beforeEach(async () => {
    ({ bus, auth, key } = await authOnBus('free'));
    verifier = new CredentialVerifier(bus, { issuer: ISSUER, audience: REST });
    await verifier.start();
  });

  afterEach(async () => {
    await verifier.stop();
    await bus.close();
  });

  it('refuses a grant as soon as auth.oauth.grant_revoked arrives', async () => {
    const jwt = await token(key);
    expect((await verifier.verify({ kind: 'bearer_token', token: jwt })).kind).toBe('oauth');
    await bus.publish(
      cloudEvent(
        'auth-server',
        'auth.oauth.grant_revoked',
        { grantId: 'grant_1', organizationId: 'org_1', livemode: true },
        { orgid: 'org_1', livemode: true },
      ),
    );
    await eventually(async () => expect(await codeOf(verifier.verify({ kind: 'bearer_token', token: jwt }))).toBe('revoked_credentials'));
  });

  it('looks the tier up again after auth.organization.tier_changed', async () => {
    const jwt = await token(key);
    expect((await verifier.verify({ kind: 'bearer_token', token: jwt })).tier).toBe('free');
    auth.tiers.set('org_1', 'org');
    await bus.publish(
      cloudEvent(
        'auth-server',
        'auth.organization.tier_changed',
        { organizationId: 'org_1', tier: 'org', previousTier: 'free', timeZone: 'UTC', livemode: true },
        { orgid: 'org_1', livemode: true },
      ),
    );
    await eventually(async () => expect((await verifier.verify({ kind: 'bearer_token', token: jwt })).tier).toBe('org'));
  });
});
