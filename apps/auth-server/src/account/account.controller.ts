import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPlainText, KEY_MODES, type KeyMode } from '#libs/contracts';
import { Auth, isScope, type Scope } from '#libs/scopes';
import { field, fields, type Form } from '../interactions/form.js';
import { WRONG_CREDENTIALS } from '../interactions/interactions.controller.js';
import { ACCOUNT_PAGE_HEADERS } from '../shared/page-headers.js';
import { busy, PasswordHashingBusy, passwordMatches } from '../users/password.js';
import { UsersRepository } from '../users/users.repository.js';
import { accountLoginPage, accountProblemPage, apiKeysPage, connectedAppsPage, overviewPage, signupPage } from './account.pages.js';
import { AccountError, type AccountErrorCode, AccountService } from './account.service.js';
import { AccountSessions, FORM_COOKIE, parseCookies, SESSION_COOKIE } from './account-session.js';
import { LoginLimiter, tooManyAttemptsMessage } from './login-limiter.js';
import { readSignup, readTimeZone, safeReturnPath, TIME_ZONE_FORM_ERROR } from './signup-form.js';

const INVALID_FORM = 'This form has expired or did not come from this site. Go back, reload the page and try again.';
const KEY_NAME_MAX_LENGTH = 100;

interface Session {
  userId: string;
  /** The cookie value, which the signed-in forms' csrf token is derived from. */
  value: string;
}

function statusOf(code: AccountErrorCode): number {
  switch (code) {
    case 'not_found':
      return 404;
    case 'forbidden':
      return 403;
    case 'email_taken':
      return 409;
    default: {
      const unreachable: never = code;
      throw new Error(`Unmapped account error ${String(unreachable)}`);
    }
  }
}

function isKeyMode(value: string): value is KeyMode {
  return (KEY_MODES as readonly string[]).includes(value);
}

/**
 * The pages a person uses to manage their account at /account: signup, sign-in, their
 * organizations and members, API keys and connected apps. Server-rendered, no script.
 * Every POST carries a csrf field (see AccountSessions); a bad one changes nothing.
 */
@Controller('account')
@Auth.public()
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly sessions: AccountSessions,
    private readonly limiter: LoginLimiter,
    private readonly users: UsersRepository,
  ) {}

  @Get('signup')
  showSignup(@Query('return') returnTo: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    const csrf = this.formCsrf(req, reply);
    this.html(reply, 200, signupPage({ csrf, returnTo: safeReturnPath(typeof returnTo === 'string' ? returnTo : '') }));
  }

  @Post('signup')
  async signup(@Body() form: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.formCsrfValid(req, form)) return this.problem(reply, 400, INVALID_FORM);
    const returnTo = safeReturnPath(field(form, 'return'));
    const email = field(form, 'email');
    const organizationName = field(form, 'organization');
    const timeZone = field(form, 'timeZone');
    const again = (status: number, error: string) =>
      this.html(
        reply,
        status,
        signupPage({ csrf: this.formCsrf(req, reply), returnTo, email, organizationName, timeZone: readTimeZone(timeZone), error }),
      );
    const input = readSignup(email, field(form, 'password'), organizationName, timeZone);
    if (!input.ok) return again(400, input.error);
    const allowance = await this.limiter.signup(input.command.email, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      return again(429, tooManyAttemptsMessage(allowance.retryAfterSeconds, 'accounts created from here'));
    }
    let userId: string;
    try {
      userId = await this.account.signUp(input.command);
    } catch (err) {
      if (err instanceof AccountError) return again(statusOf(err.code), err.message);
      if (err instanceof PasswordHashingBusy) return again(429, busy(reply, err));
      throw err;
    }
    await this.signInAs(reply, userId, returnTo ?? '/account');
  }

  @Get('login')
  showLogin(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    this.html(reply, 200, accountLoginPage({ csrf: this.formCsrf(req, reply) }));
  }

  @Post('login')
  async login(@Body() form: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.formCsrfValid(req, form)) return this.problem(reply, 400, INVALID_FORM);
    const email = field(form, 'email');
    const again = (status: number, error: string) =>
      this.html(reply, status, accountLoginPage({ csrf: this.formCsrf(req, reply), email, error }));
    const user = email ? await this.users.findByEmail(email) : null;
    // Counted under the account's own email: every spelling the lookup matches is one account.
    const account = user?.email ?? email;
    const allowance = await this.limiter.attempt(account, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      return again(429, tooManyAttemptsMessage(allowance.retryAfterSeconds));
    }
    let matches: boolean;
    try {
      matches = await passwordMatches(user?.passwordHash, field(form, 'password'));
    } catch (err) {
      if (err instanceof PasswordHashingBusy) return again(429, busy(reply, err));
      throw err;
    }
    if (!matches || !user) return again(401, WRONG_CREDENTIALS);
    await this.limiter.succeeded(account, req.ip);
    await this.signInAs(reply, user.id, '/account');
  }

  @Post('logout')
  async logout(@Body() form: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    await this.sessions.end(session.value);
    this.redirect(reply.header('set-cookie', this.sessions.clearedSessionCookie()), '/account/login');
  }

  @Get()
  async overview(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply);
    if (!session) return;
    const email = (await this.account.email(session.userId)) ?? '';
    const organizations = await this.account.overview(session.userId);
    this.html(reply, 200, overviewPage({ csrf: this.sessions.csrfForSession(session.value), email, organizations }));
  }

  @Post('time-zone')
  async setTimeZone(
    @Query('org') org: unknown,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    await this.run(reply, async () => {
      const { chosen } = await this.account.chooseOrganization(session.userId, typeof org === 'string' ? org : undefined);
      const organizationId = chosen.organization.id;
      if (await this.account.setTimeZone(session.userId, organizationId, field(form, 'timeZone'))) return this.redirect(reply, '/account');
      const email = (await this.account.email(session.userId)) ?? '';
      const organizations = await this.account.overview(session.userId);
      const csrf = this.sessions.csrfForSession(session.value);
      this.html(reply, 400, overviewPage({ csrf, email, organizations, timeZoneError: { organizationId, message: TIME_ZONE_FORM_ERROR } }));
    });
  }

  @Get('api-keys')
  async apiKeys(@Query('org') org: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply);
    if (!session) return;
    await this.run(reply, async () => {
      const { chosen, all } = await this.account.chooseOrganization(session.userId, typeof org === 'string' ? org : undefined);
      const keys = await this.account.keysOf(chosen.organization.id);
      this.html(reply, 200, apiKeysPage({ csrf: this.sessions.csrfForSession(session.value), chosen, all, keys }));
    });
  }

  @Post('api-keys')
  async createKey(
    @Query('org') org: unknown,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    await this.run(reply, async () => {
      const { chosen, all } = await this.account.chooseOrganization(session.userId, typeof org === 'string' ? org : undefined);
      const csrf = this.sessions.csrfForSession(session.value);
      const show = async (status: number, extra: Pick<Parameters<typeof apiKeysPage>[0], 'created' | 'error'>) =>
        this.html(reply, status, apiKeysPage({ csrf, chosen, all, keys: await this.account.keysOf(chosen.organization.id), ...extra }));
      const name = field(form, 'name').trim();
      const mode = field(form, 'mode');
      const scopes = [...new Set(fields(form, 'scope'))].filter((s): s is Scope => isScope(s));
      if (!isKeyMode(mode)) return show(400, { error: 'Choose test or live as the mode.' });
      if (name.length > KEY_NAME_MAX_LENGTH) return show(400, { error: `Keep the name to ${KEY_NAME_MAX_LENGTH} characters.` });
      if (!isPlainText(name)) return show(400, { error: 'Write the name without control characters.' });
      if (scopes.length === 0) return show(400, { error: 'Choose at least one scope.' });
      const created = await this.account.createKey(session.userId, chosen.organization.id, { name: name || undefined, mode, scopes });
      return show(201, { created });
    });
  }

  @Post('api-keys/:id/revoke')
  async revokeKey(
    @Param('id') id: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    await this.run(reply, async () => {
      const organizationId = await this.account.revokeKey(session.userId, id);
      this.redirect(reply, `/account/api-keys?org=${encodeURIComponent(organizationId)}`);
    });
  }

  @Get('apps')
  async apps(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply);
    if (!session) return;
    const apps = await this.account.connectedApps(session.userId);
    this.html(reply, 200, connectedAppsPage({ csrf: this.sessions.csrfForSession(session.value), apps }));
  }

  @Post('apps/:grantId/revoke')
  async revokeApp(
    @Param('grantId') grantId: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    await this.run(reply, async () => {
      await this.account.disconnectApp(session.userId, grantId);
      this.redirect(reply, '/account/apps');
    });
  }

  /**
   * The signed-in user's session, or undefined after redirecting to the login page (or, for a
   * form post, answering 400 when its csrf token does not belong to the session).
   */
  private async signedIn(req: FastifyRequest, reply: FastifyReply, form?: Form): Promise<Session | undefined> {
    const value = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const userId = await this.sessions.userIdOf(value);
    if (!value || !userId || !(await this.account.email(userId))) {
      this.redirect(reply, '/account/login');
      return undefined;
    }
    if (req.method !== 'GET' && !this.sessions.csrfValidForSession(value, field(form, 'csrf'))) {
      this.problem(reply, 400, INVALID_FORM);
      return undefined;
    }
    return { userId, value };
  }

  /** The csrf token of the login and signup forms, setting their double-submit cookie when new. */
  private formCsrf(req: FastifyRequest, reply: FastifyReply): string {
    const { nonce, fresh } = this.sessions.formNonce(parseCookies(req.headers.cookie).get(FORM_COOKIE));
    if (fresh) reply.header('set-cookie', this.sessions.formCookie(nonce));
    return this.sessions.csrfForForm(nonce);
  }

  private formCsrfValid(req: FastifyRequest, form: Form | undefined): boolean {
    return this.sessions.csrfValidForForm(parseCookies(req.headers.cookie).get(FORM_COOKIE), field(form, 'csrf'));
  }

  private async signInAs(reply: FastifyReply, userId: string, location: string): Promise<void> {
    this.redirect(reply.header('set-cookie', this.sessions.sessionCookie(await this.sessions.issue(userId))), location);
  }

  /** Runs a page's work, turning an AccountError into its error page. */
  private async run(reply: FastifyReply, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (!(err instanceof AccountError)) throw err;
      this.problem(reply, statusOf(err.code), err.message);
    }
  }

  private problem(reply: FastifyReply, status: number, message: string): void {
    this.html(reply, status, accountProblemPage(message));
  }

  private redirect(reply: FastifyReply, location: string): void {
    void reply
      .code(303)
      .headers({ ...ACCOUNT_PAGE_HEADERS, location })
      .send();
  }

  private html(reply: FastifyReply, status: number, body: string): void {
    void reply.code(status).headers(ACCOUNT_PAGE_HEADERS).send(body);
  }
}
