import type { OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid, type ParticipantView } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { isProblemError, type ProblemBody, toProblemBody } from '#libs/problem';
import type { SafeHtml } from '#libs/web';
import { html, parseCookies } from '#libs/web';
import { readForm } from '../pages/page-form.js';
import { PAGE_HEADERS } from '../pages/page-headers.js';
import { type ApiAnswer, ApiProblem, type ApiRequest, DashboardApi } from './api.js';
import type { AuthClient } from './auth-client.js';
import type { SessionStore } from './session-store.js';
import { type DashboardSessions, SESSION_COOKIE } from './sessions.js';
import { type Membership, plainPage, problemPage, type Viewer } from './views/frame.js';

/** A page to answer with: its status and HTML, or a redirect. */
export interface Rendered {
  status: number;
  page?: SafeHtml;
  /** With a 303: where to go next. */
  location?: string;
  /** Extra headers (a download's type and name). */
  headers?: Record<string, string>;
  /** A body that is not a page (a CSV export, a QR code). */
  body?: string | Buffer;
}

/** What a signed-in page may do: who is signed in, and the REST API with their token. */
export interface Caller {
  viewer: Viewer;
  /** The form's values, on a POST. */
  form: Record<string, string>;
  /** The form as posted (repeated fields, such as checkboxes of one name, are arrays), on a POST. */
  body: unknown;
  /** The REST API; a refusal is thrown (ApiProblem), and shown as a page unless the caller catches it. */
  api<T>(method: ApiRequest['method'], path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** The REST API, answering refusals too. */
  call<T>(method: ApiRequest['method'], path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
}

/** The answer to a form without its session's CSRF token, or from another site: nothing done. */
const FORM_REFUSED: Rendered = {
  status: 403,
  page: plainPage(
    'This form has expired',
    html`<p role="alert">This form is not valid any more. <a href="/app/signups">Go back</a> and try again.</p>`,
  ),
};

/** Longer than any field the REST API takes (a description of 5,000, a question's choices): the API says what is too long. */
const FORM_VALUE_MAX_LENGTH = 20_000;

/** The dashboard's routes, outside the REST prefix. */
export const DASHBOARD_ROUTES = ['app', 'app/{*path}'];

export const seeOther = (location: string): Rendered => ({ status: 303, location });

interface MeAnswer {
  email: string;
  organization: Viewer['organization'];
  role?: string;
  organizations?: Membership[];
}

/** A path segment the REST API would take as an id; anything else is sent as the nil UUID, which the API answers 404 (not found) for. */
export const idOf = (id: string): string => (isUuid(id) ? id : '00000000-0000-0000-0000-000000000000');

/** At most this many participants are read for a page (pages of 100): the CSV export has them all. */
const MAX_LISTED = 1000;
const PAGE_SIZE = 100;

/** A signup's participants through the REST API, oldest first, at most MAX_LISTED; `truncated` when there are more. */
export async function participantsOf(caller: Caller, signupId: string): Promise<{ participants: ParticipantView[]; truncated: boolean }> {
  const participants: ParticipantView[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor && { cursor }) });
    const page: ApiAnswer<{ data: ParticipantView[]; nextCursor: string | null }> = await caller.api(
      'GET',
      `/signups/${signupId}/participants?${params}`,
    );
    participants.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor && participants.length < MAX_LISTED);
  return { participants, truncated: cursor !== null };
}

/** Where a sign-in may return: a dashboard path of this origin, never elsewhere. */
export function safeReturn(path: unknown): string {
  return typeof path === 'string' && /^\/app\/[A-Za-z0-9/_.?=&%-]*$/.test(path) && !path.includes('//') ? path : '/app/signups';
}

/**
 * The dashboard's plumbing: sessions, the auth-server client, the REST API in process, and the
 * answer of every page with its headers. Owns the session store.
 */
export class DashboardService implements OnModuleDestroy {
  readonly headers: Record<string, string>;
  private api?: DashboardApi;

  constructor(
    readonly sessions: DashboardSessions,
    readonly auth: AuthClient,
    private readonly store: SessionStore,
    private readonly fastify: () => FastifyInstance,
    private readonly origin: string,
    authOrigin: string,
    private readonly logger: Logger,
  ) {
    // Forms post here, and a sign-in or a switch of organization goes on to the auth-server; the progressive enhancement script is ours.
    this.headers = {
      ...PAGE_HEADERS,
      'content-security-policy': PAGE_HEADERS['content-security-policy']!.replace(
        "form-action 'self'",
        `form-action 'self' ${authOrigin}; script-src 'self'; connect-src 'self'`,
      ),
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }

  /** Ends a session and revokes its grant, so its tokens stop working at every edge at once. */
  async endSession(cookie: string | undefined): Promise<void> {
    const refreshToken = await this.sessions.end(cookie);
    if (!refreshToken) return;
    await this.auth
      .revoke(refreshToken)
      .catch((err: unknown) => this.logger.warn({ err }, 'dashboard sign-out: the grant was not revoked'));
  }

  private restApi(): DashboardApi {
    this.api ??= new DashboardApi(this.fastify());
    return this.api;
  }

  /** Answers a page that needs no session. */
  async plain(reply: FastifyReply, render: () => Promise<Rendered>): Promise<string | Buffer> {
    return this.send(reply, await this.guarded(undefined, render));
  }

  /**
   * Answers a signed-in page: no session sends the browser to sign in (and back here after a
   * GET); a POST must carry the session's CSRF token and come from this origin.
   */
  async signedIn(req: FastifyRequest, reply: FastifyReply, render: (caller: Caller) => Promise<Rendered>): Promise<string | Buffer> {
    const cookie = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    let token: string | undefined;
    try {
      token = await this.sessions.accessToken(cookie, (refreshToken) => this.auth.refresh(refreshToken));
    } catch (err) {
      // The auth-server could not refresh the token just now: the session stays for the next try.
      this.logger.warn({ err }, 'dashboard: the token could not be refreshed');
      return this.send(reply, {
        status: 503,
        page: plainPage(
          'Try again in a moment',
          html`<p role="alert">The sign-in service cannot be reached just now. Please try again in a moment.</p>`,
        ),
      });
    }
    const post = req.method === 'POST';
    if (!token || !cookie) {
      reply.header('set-cookie', this.sessions.clearedCookie(SESSION_COOKIE));
      return this.send(reply, seeOther(post ? '/app/signin' : `/app/signin?return=${encodeURIComponent(safeReturn(req.url))}`));
    }
    const form = post ? readForm(req.body, () => FORM_VALUE_MAX_LENGTH) : {};
    if (post && !this.formAllowed(req, cookie, form)) return this.send(reply, FORM_REFUSED);
    const call = <T>(method: ApiRequest['method'], path: string, body?: unknown, headers?: Record<string, string>) =>
      this.restApi().call<T>({ token, method, path, body, headers, remoteAddress: req.ip });
    const me = await call<MeAnswer>('GET', '/me');
    if (me.status === 401) {
      await this.endSession(cookie);
      reply.header('set-cookie', this.sessions.clearedCookie(SESSION_COOKIE));
      return this.send(reply, seeOther('/app/signin'));
    }
    if (me.status >= 400) return this.send(reply, { status: me.status, page: problemPage(undefined, me.body as unknown as ProblemBody) });
    const viewer: Viewer = {
      email: me.body.email,
      organization: me.body.organization,
      role: me.body.role ?? 'member',
      organizations: me.body.organizations ?? [],
      csrf: this.sessions.csrf(cookie),
    };
    const caller: Caller = {
      viewer,
      form,
      body: post ? req.body : undefined,
      call,
      api: async (method, path, body, headers) => {
        const answer = await call(method, path, body, headers);
        if (answer.status >= 400) throw new ApiProblem(answer.body as ProblemBody);
        return answer as never;
      },
    };
    return this.send(reply, await this.guarded(viewer, () => render(caller)));
  }

  /**
   * Signs out with nothing but the form's own checks: no token refresh and no GET /me, so a
   * limit reached or an auth-server down never keeps a session alive against its user's wish.
   */
  async signOut(req: FastifyRequest, reply: FastifyReply): Promise<string | Buffer> {
    const cookie = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const live = await this.sessions.exists(cookie);
    if (live && !this.formAllowed(req, cookie, readForm(req.body))) return this.send(reply, FORM_REFUSED);
    if (live) await this.endSession(cookie);
    reply.header('set-cookie', this.sessions.clearedCookie(SESSION_COOKIE));
    return this.send(reply, seeOther('/app/signed-out'));
  }

  /** A form of this session (its CSRF token) posted from this site. */
  private formAllowed(req: FastifyRequest, cookie: string | undefined, form: Record<string, string>): boolean {
    return this.sessions.csrfValid(cookie, form.csrf) && this.sameOrigin(req);
  }

  /**
   * A form posted from another site is refused, on top of the CSRF token: by the browser's
   * Sec-Fetch-Site where it sends one, else by Origin (which the pages' no-referrer policy makes
   * "null" on every post, so it only tells when it names another origin).
   */
  private sameOrigin(req: FastifyRequest): boolean {
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined) return site === 'same-origin';
    const origin = req.headers.origin;
    return origin === undefined || origin === 'null' || origin === this.origin;
  }

  /** Runs a render; a refusal of the API becomes its page, anything else the error page (logged). */
  private async guarded(viewer: Viewer | undefined, render: () => Promise<Rendered>): Promise<Rendered> {
    try {
      return await render();
    } catch (err) {
      if (err instanceof ApiProblem) return { status: err.problem.status, page: problemPage(viewer, err.problem) };
      if (isProblemError(err) && err.status < 500) return { status: err.status, page: problemPage(viewer, toProblemBody(err, '')) };
      this.logger.error({ err }, 'dashboard page failed');
      return {
        status: 500,
        page: plainPage('Something went wrong', html`<p role="alert">This could not be done just now. Please try again in a moment.</p>`),
      };
    }
  }

  private send(reply: FastifyReply, rendered: Rendered): string | Buffer {
    reply.headers(this.headers);
    if (rendered.headers) reply.headers(rendered.headers);
    if (rendered.location) reply.header('location', rendered.location);
    reply.status(rendered.status);
    return rendered.body ?? rendered.page?.value ?? '';
  }
}
