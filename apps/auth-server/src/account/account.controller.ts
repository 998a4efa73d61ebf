import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isEmailAddress, isPlainText, KEY_MODES, type KeyMode } from '#libs/contracts';
import { Auth, isScope, type Scope } from '#libs/scopes';
import { parseCookies } from '#libs/web';
import { field, fields, type Form } from '../interactions/form.js';
import { WRONG_CREDENTIALS } from '../interactions/interactions.controller.js';
import { ACCOUNT_PAGE_HEADERS } from '../shared/page-headers.js';
import { busy, PasswordHashingBusy, passwordMatches } from '../users/password.js';
import { UsersRepository } from '../users/users.repository.js';
import {
  accountLoginPage,
  accountProblemPage,
  apiKeysPage,
  connectedAppsPage,
  emailVerifiedPage,
  forgotPasswordPage,
  linkInvalidPage,
  overviewPage,
  resetPasswordPage,
  signupPage,
  verificationSentPage,
  verifyEmailPage,
} from './account.pages.js';
import { AccountError, type AccountErrorCode, AccountService } from './account.service.js';
import { AccountEmails, LINK_PATHS } from './account-emails.js';
import { AccountSessions, FORM_COOKIE, SESSION_COOKIE } from './account-session.js';
import { isAccountToken } from './account-tokens.repository.js';
import { LoginLimiter, tooManyAttemptsMessage } from './login-limiter.js';
import { passwordProblem, readSignup, readTimeZone, safeReturnPath, TIME_ZONE_FORM_ERROR } from './signup-form.js';

const INVALID_FORM = 'This form has expired or did not come from this site. Go back, reload the page and try again.';
const KEY_NAME_MAX_LENGTH = 100;
/** `?password=changed` on /account, where a password reset lands. */
const PASSWORD_CHANGED = 'changed';
const NEW_VERIFICATION_LINK = { href: '/account', label: 'Sign in to your account to get a new link' };
const NEW_RESET_LINK = { href: '/account/forgot-password', label: 'Ask for a new link' };

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
    case 'email_unverified':
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
 * organizations and members, API keys and connected apps, email verification and password
 * reset. Server-rendered, no script. Every POST carries a csrf field (see AccountSessions); a
 * bad one changes nothing.
 */
@Controller('account')
@Auth.public()
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly sessions: AccountSessions,
    private readonly limiter: LoginLimiter,
    private readonly users: UsersRepository,
    private readonly emails: AccountEmails,
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
    // Not sent (the mailer is down): the account page offers to send it again.
    await this.emails.sendVerification({ id: userId, email: input.command.email });
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
  async overview(@Query('password') password: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply);
    if (!session) return;
    const { email, verified } = (await this.account.emailOf(session.userId)) ?? { email: '', verified: false };
    const organizations = await this.account.overview(session.userId);
    const notice = password === PASSWORD_CHANGED ? 'Your password was changed, and every other session was signed out.' : undefined;
    this.html(reply, 200, overviewPage({ csrf: this.sessions.csrfForSession(session.value), email, verified, organizations, notice }));
  }

  @Post('verification/resend')
  async resendVerification(@Body() form: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply, form);
    if (!session) return;
    const user = await this.account.emailOf(session.userId);
    if (!user || user.verified) return this.redirect(reply, '/account');
    const allowance = await this.limiter.verificationResend(user.email, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      return this.problem(reply, 429, tooManyAttemptsMessage(allowance.retryAfterSeconds, 'verification emails asked for'));
    }
    if (!(await this.emails.sendVerification({ id: session.userId, email: user.email }))) {
      return this.problem(reply, 503, 'The email could not be sent just now. Try again in a few minutes.');
    }
    this.html(reply, 200, verificationSentPage({ csrf: this.sessions.csrfForSession(session.value), email: user.email }));
  }

  /** A verification link: the page with the button that verifies (a mail scanner that follows the link verifies nothing). */
  @Get('verify/:token')
  async showVerify(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.emails.verificationTokenValid(token))) return this.html(reply, 404, linkInvalidPage(NEW_VERIFICATION_LINK));
    this.html(reply, 200, verifyEmailPage({ csrf: this.formCsrf(req, reply), action: `${LINK_PATHS.verify_email}${token}` }));
  }

  @Post('verify/:token')
  async verify(
    @Param('token') token: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!this.formCsrfValid(req, form)) return this.problem(reply, 400, INVALID_FORM);
    if (!(await this.emails.verify(token))) return this.html(reply, 404, linkInvalidPage(NEW_VERIFICATION_LINK));
    this.html(reply, 200, emailVerifiedPage());
  }

  @Get('forgot-password')
  showForgotPassword(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    this.html(reply, 200, forgotPasswordPage({ csrf: this.formCsrf(req, reply) }));
  }

  /**
   * Always the same answer, whether an account has the address or not, and as soon: the account
   * is looked up, and its link made and mailed, after the page is sent.
   */
  @Post('forgot-password')
  async forgotPassword(@Body() form: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.formCsrfValid(req, form)) return this.problem(reply, 400, INVALID_FORM);
    const email = field(form, 'email').trim();
    const again = (status: number, extra: { error?: string; sentTo?: string }) =>
      this.html(reply, status, forgotPasswordPage({ csrf: this.formCsrf(req, reply), email, ...extra }));
    if (!isEmailAddress(email)) return again(400, { error: 'Enter a valid email address.' });
    const allowance = await this.limiter.passwordReset(email, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      return again(429, { error: tooManyAttemptsMessage(allowance.retryAfterSeconds, 'password resets asked for') });
    }
    again(200, { sentTo: email });
    this.emails.requestPasswordReset(email);
  }

  @Get('reset-password/:token')
  async showResetPassword(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.emails.resetTokenValid(token))) return this.html(reply, 404, linkInvalidPage(NEW_RESET_LINK));
    this.html(reply, 200, resetPasswordPage({ csrf: this.formCsrf(req, reply), action: `${LINK_PATHS.reset_password}${token}` }));
  }

  @Post('reset-password/:token')
  async resetPassword(
    @Param('token') token: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!this.formCsrfValid(req, form)) return this.problem(reply, 400, INVALID_FORM);
    // A path of another shape is no link of ours: never echoed as the form's action.
    if (!isAccountToken(token)) return this.html(reply, 404, linkInvalidPage(NEW_RESET_LINK));
    const again = (status: number, error: string) =>
      this.html(
        reply,
        status,
        resetPasswordPage({ csrf: this.formCsrf(req, reply), action: `${LINK_PATHS.reset_password}${token}`, error }),
      );
    const password = field(form, 'password');
    const weak = passwordProblem(password);
    if (weak) return again(400, weak);
    let userId: string | undefined;
    try {
      userId = await this.emails.resetPassword(token, password);
    } catch (err) {
      if (err instanceof PasswordHashingBusy) return again(429, busy(reply, err));
      throw err;
    }
    if (!userId) return this.html(reply, 404, linkInvalidPage(NEW_RESET_LINK));
    await this.signInAs(reply, userId, `/account?password=${PASSWORD_CHANGED}`);
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
      const { email, verified } = (await this.account.emailOf(session.userId)) ?? { email: '', verified: false };
      const organizations = await this.account.overview(session.userId);
      const csrf = this.sessions.csrfForSession(session.value);
      const timeZoneError = { organizationId, message: TIME_ZONE_FORM_ERROR };
      this.html(reply, 400, overviewPage({ csrf, email, verified, organizations, timeZoneError }));
    });
  }

  @Get('api-keys')
  async apiKeys(@Query('org') org: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.signedIn(req, reply);
    if (!session) return;
    await this.run(reply, async () => {
      const { chosen, all } = await this.account.chooseOrganization(session.userId, typeof org === 'string' ? org : undefined);
      const keys = await this.account.keysOf(chosen.organization.id);
      const unverifiedEmail = await this.unverifiedEmailOf(session.userId);
      this.html(reply, 200, apiKeysPage({ csrf: this.sessions.csrfForSession(session.value), chosen, all, keys, unverifiedEmail }));
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
      const show = async (status: number, extra: Pick<Parameters<typeof apiKeysPage>[0], 'created' | 'error'>) => {
        const keys = await this.account.keysOf(chosen.organization.id);
        const unverifiedEmail = await this.unverifiedEmailOf(session.userId);
        this.html(reply, status, apiKeysPage({ csrf, chosen, all, keys, unverifiedEmail, ...extra }));
      };
      const name = field(form, 'name').trim();
      const mode = field(form, 'mode');
      const scopes = [...new Set(fields(form, 'scope'))].filter((s): s is Scope => isScope(s));
      if (!isKeyMode(mode)) return show(400, { error: 'Choose test or live as the mode.' });
      if (name.length > KEY_NAME_MAX_LENGTH) return show(400, { error: `Keep the name to ${KEY_NAME_MAX_LENGTH} characters.` });
      if (!isPlainText(name)) return show(400, { error: 'Write the name without control characters.' });
      if (scopes.length === 0) return show(400, { error: 'Choose at least one scope.' });
      try {
        const created = await this.account.createKey(session.userId, chosen.organization.id, { name: name || undefined, mode, scopes });
        return await show(201, { created });
      } catch (err) {
        if (err instanceof AccountError && err.code === 'email_unverified') return show(statusOf(err.code), { error: err.message });
        throw err;
      }
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

  /** The user's email while it is not verified; undefined once it is. */
  private async unverifiedEmailOf(userId: string): Promise<string | undefined> {
    const user = await this.account.emailOf(userId);
    return user && !user.verified ? user.email : undefined;
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
