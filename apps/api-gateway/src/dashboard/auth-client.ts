import { createHash, randomBytes } from 'node:crypto';
import { DASHBOARD_CALLBACK_PATH, DASHBOARD_CLIENT_ID } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';
import type { Tokens } from './sessions.js';

/** The auth-server answers in milliseconds; a hung one must not hold a page. */
const TIMEOUT_MS = 10_000;

/** An authorization request of the dashboard: its URL, and the state and PKCE verifier to keep until the answer. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  verifier: string;
}

/** The auth-server refused or failed a token request. */
export class TokenRequestFailed extends Error {
  constructor(
    readonly status: number,
    /** The OAuth error code, when the answer had one. */
    readonly error: string | undefined,
  ) {
    super(`token request refused (${status}${error ? ` ${error}` : ''})`);
  }
}

interface TokenAnswer {
  error?: unknown;
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/**
 * The dashboard as a first-party OAuth client of the auth-server: the code flow with PKCE, the
 * refresh grant and revocation, over HTTP at AUTH_URL like any other client. It asks for every
 * scope; the auth-server grants what the user's role allows.
 */
export class AuthClient {
  readonly redirectUri: string;

  constructor(
    private readonly authUrl: string,
    /** The REST API's resource (PUBLIC_BASE_URL): the tokens' audience. */
    private readonly resource: string,
  ) {
    this.redirectUri = `${new URL(resource).origin}${DASHBOARD_CALLBACK_PATH}`;
  }

  /**
   * `organization` picks the token's organization. The auth-server asks this client for the
   * password every time, so no `prompt` is needed (nor could one be trusted: it is the browser's).
   */
  authorization(options: { organization?: string }): AuthorizationRequest {
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: DASHBOARD_CLIENT_ID,
      redirect_uri: this.redirectUri,
      scope: ALL_SCOPES.join(' '),
      resource: this.resource,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    if (options.organization) query.set('organization', options.organization);
    return { url: `${this.authUrl}/oauth/authorize?${query}`, state, verifier };
  }

  exchange(code: string, verifier: string): Promise<Tokens> {
    return this.tokens({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: this.redirectUri });
  }

  /**
   * New tokens for a refresh token (which is used up); undefined when the grant is gone (revoked,
   * expired: invalid_grant). Any other failure (the auth-server unreachable, busy) is thrown: the
   * session stays, to be refreshed at the next request.
   */
  async refresh(refreshToken: string): Promise<Tokens | undefined> {
    try {
      return await this.tokens({ grant_type: 'refresh_token', refresh_token: refreshToken });
    } catch (err) {
      if (err instanceof TokenRequestFailed && err.error === 'invalid_grant') return undefined;
      throw err;
    }
  }

  /** Revokes the session's grant (RFC 7009): its tokens stop working at every edge. */
  async revoke(refreshToken: string): Promise<void> {
    await this.post('/oauth/revoke', { token: refreshToken, token_type_hint: 'refresh_token' });
  }

  private async tokens(form: Record<string, string>): Promise<Tokens> {
    const res = await this.post('/oauth/token', form);
    const answer = (await res.json().catch(() => ({}))) as TokenAnswer;
    const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn } = answer;
    if (!res.ok || typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number') {
      throw new TokenRequestFailed(res.status, typeof answer.error === 'string' ? answer.error : undefined);
    }
    return { accessToken, refreshToken, expiresAt: Date.now() + expiresIn * 1000 };
  }

  private post(path: string, form: Record<string, string>): Promise<Response> {
    return fetch(`${this.authUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ ...form, client_id: DASHBOARD_CLIENT_ID }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  }
}
