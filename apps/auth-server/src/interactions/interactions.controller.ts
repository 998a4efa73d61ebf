import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionDetails } from 'oidc-provider';
import { type MemberRole, ROLE_SCOPES } from '#libs/contracts';
import { Auth, isScope, type Scope } from '#libs/scopes';
import { VERIFY_FIRST } from '../account/account.service.js';
import { AccountEmails } from '../account/account-emails.js';
import { LoginLimiter, tooManyAttemptsMessage } from '../account/login-limiter.js';
import { isFirstParty, ORGANIZATION_PARAM, requestedOrganization } from '../oauth/first-party.js';
import { consentDecisions } from '../oauth/middleware/found-redirects.js';
import { answerByProvider } from '../oauth/oauth.controller.js';
import { OAuthGrants } from '../oauth/oauth-grants.js';
import { OAuthProvider } from '../oauth/oauth-provider.js';
import { interactionPath } from '../oauth/oauth-routes.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import { PAGE_HEADERS } from '../shared/page-headers.js';
import { busy, PasswordHashingBusy, passwordMatches } from '../users/password.js';
import { UsersRepository } from '../users/users.repository.js';
import { field, fields, type Form } from './form.js';
import { consentPage, loginPage, type OrganizationChoice, problemPage, verifyFirstPage } from './pages.js';

export const WRONG_CREDENTIALS = 'The email or password is incorrect.';

function requestedScopes(details: InteractionDetails): Scope[] {
  const scope = typeof details.params.scope === 'string' ? details.params.scope : '';
  return [...new Set(scope.split(' ').filter(isScope))];
}

/** The routes of an interaction's pages, under the resume path of the code flow and of the device flow. */
function pages(action = ''): string[] {
  return ['authorize', 'device'].map((flow) => `${flow}/:uid/interaction${action}`);
}

/**
 * The login and consent pages oidc-provider sends the browser to. Each POST must come with the
 * interaction's cookie (SameSite=Lax, scoped to this path, so not sent by a cross-site form
 * post) and the hidden csrf field, an HMAC of the interaction uid under a server-side key.
 */
@Controller('oauth')
@Auth.public()
export class InteractionsController {
  constructor(
    @Inject(OAuthProvider) private readonly oauth: OAuthProvider,
    private readonly grants: OAuthGrants,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly limiter: LoginLimiter,
    private readonly emails: AccountEmails,
  ) {}

  @Get(pages())
  async show(@Param('uid') uid: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const details = await this.details(uid, req, reply);
    if (!details) return;
    if (details.prompt.name === 'login') {
      this.html(
        reply,
        200,
        loginPage({
          path: interactionPath(details.returnTo),
          csrf: this.oauth.csrf.token(uid),
          clientName: await this.clientName(details),
        }),
      );
      return;
    }
    await this.afterSignIn(details, req, reply);
  }

  @Post(pages('/login'))
  async login(
    @Param('uid') uid: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const details = await this.details(uid, req, reply, form);
    if (!details) return;
    if (details.prompt.name !== 'login') {
      this.html(reply, 400, problemPage('This step of the sign-in is already done.'));
      return;
    }
    const email = field(form, 'email');
    const again = async (error: string) =>
      loginPage({
        path: interactionPath(details.returnTo),
        csrf: this.oauth.csrf.token(uid),
        clientName: await this.clientName(details),
        email,
        error,
      });
    const user = email ? await this.users.findByEmail(email) : null;
    // Counted under the account's own email: every spelling the lookup matches is one account.
    const account = user?.email ?? email;
    const allowance = await this.limiter.attempt(account, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      this.html(reply, 429, await again(tooManyAttemptsMessage(allowance.retryAfterSeconds)));
      return;
    }
    let matches: boolean;
    try {
      matches = await passwordMatches(user?.passwordHash, field(form, 'password'));
    } catch (err) {
      if (!(err instanceof PasswordHashingBusy)) throw err;
      this.html(reply, 429, await again(busy(reply, err)));
      return;
    }
    if (!matches || !user) {
      this.html(reply, 401, await again(WRONG_CREDENTIALS));
      return;
    }
    await this.limiter.succeeded(account, req.ip);
    await this.finish(req, reply, { login: { accountId: user.id } }, false);
  }

  @Post(pages('/confirm'))
  async confirm(
    @Param('uid') uid: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const details = await this.details(uid, req, reply, form);
    if (!details) return;
    const accountId = details.session?.accountId;
    if (details.prompt.name !== 'consent' || !accountId) {
      this.html(reply, 400, problemPage('Sign in before approving access.'));
      return;
    }
    if (!(await this.emails.verified(accountId))) {
      await this.showVerifyFirst(details, reply, 403, { error: VERIFY_FIRST });
      return;
    }
    const organizations = await this.organizationsOf(accountId);
    const chosen = organizations.length > 1 ? organizations.find((o) => o.id === field(form, 'organization')) : organizations[0];
    if (!chosen) {
      await this.showConsent(details, reply, 400, 'Choose one of your organizations.');
      return;
    }
    const requested = requestedScopes(details);
    const allowed = ROLE_SCOPES[chosen.role];
    const kept = new Set(fields(form, 'scope').filter((s) => requested.includes(s as Scope) && allowed.includes(s as Scope)));
    if (kept.size === 0) {
      await this.showConsent(details, reply, 400, 'Keep at least one permission, or choose Deny.');
      return;
    }
    await this.grantAndFinish(details, req, reply, chosen.id, kept);
  }

  /** Sends the verification link again from the page that stands instead of consent (same limits as the account page's button). */
  @Post(pages('/resend'))
  async resend(
    @Param('uid') uid: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const details = await this.details(uid, req, reply, form);
    if (!details) return;
    const user = details.session?.accountId ? await this.users.findById(details.session.accountId) : undefined;
    if (details.prompt.name !== 'consent' || !user) {
      this.html(reply, 400, problemPage('Sign in before approving access.'));
      return;
    }
    if (user.emailVerifiedAt) {
      await this.afterSignIn(details, req, reply);
      return;
    }
    const allowance = await this.limiter.verificationResend(user.email, req.ip);
    if (!allowance.allowed) {
      reply.header('retry-after', String(allowance.retryAfterSeconds));
      await this.showVerifyFirst(details, reply, 429, {
        error: tooManyAttemptsMessage(allowance.retryAfterSeconds, 'verification emails asked for'),
      });
      return;
    }
    if (!(await this.emails.sendVerification(user))) {
      await this.showVerifyFirst(details, reply, 503, { error: 'The email could not be sent just now. Try again in a few minutes.' });
      return;
    }
    await this.showVerifyFirst(details, reply, 200, { sent: true });
  }

  @Post(pages('/abort'))
  async abort(
    @Param('uid') uid: string,
    @Body() form: Form | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const details = await this.details(uid, req, reply, form);
    if (!details) return;
    consentDecisions.add(req.raw);
    await this.finish(req, reply, { error: 'access_denied', error_description: 'The user denied the request.' }, false);
  }

  /**
   * What follows the sign-in: the consent page, or for a first-party client (the dashboard) no
   * page at all. Once the user's email is verified (until then, the page asking for it), its
   * interaction is finished with every requested scope the user's role allows in the organization
   * the request names (`organization`, one of the user's; else the oldest membership).
   */
  private async afterSignIn(details: InteractionDetails, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isFirstParty(details.params.client_id)) {
      await this.showConsent(details, reply, 200);
      return;
    }
    const accountId = details.session?.accountId ?? '';
    if (!(await this.emails.verified(accountId))) {
      await this.showVerifyFirst(details, reply, 403, {});
      return;
    }
    const organizations = await this.organizationsOf(accountId);
    const wanted = requestedOrganization(
      organizations.map((o) => o.id),
      details.params[ORGANIZATION_PARAM],
    );
    const chosen = organizations.find((o) => o.id === wanted);
    const allowed = chosen ? requestedScopes(details).filter((scope) => ROLE_SCOPES[chosen.role].includes(scope)) : [];
    if (!chosen || allowed.length === 0) {
      const why = chosen ? 'Your role allows none of the requested permissions.' : 'You belong to no organization.';
      consentDecisions.add(req.raw);
      await this.finish(req, reply, { error: 'access_denied', error_description: why }, false);
      return;
    }
    await this.grantAndFinish(details, req, reply, chosen.id, new Set(allowed));
  }

  /**
   * Grants the kept scopes for the organization and resumes the authorization, which answers the
   * redirect to the client. An earlier grant is extended only for the same organization: its
   * tokens never move to another.
   */
  private async grantAndFinish(
    details: InteractionDetails,
    req: FastifyRequest,
    reply: FastifyReply,
    organizationId: string,
    kept: Set<string>,
  ): Promise<void> {
    const { Grant } = this.oauth.provider;
    const accountId = details.session?.accountId ?? '';
    const clientId = String(details.params.client_id);
    const earlier =
      details.grantId && (await this.grants.organizationOf(details.grantId)) === organizationId
        ? await Grant.find(details.grantId)
        : undefined;
    const grant = earlier ?? new Grant({ accountId, clientId });
    const requested = requestedScopes(details);
    const missingOidc = (details.prompt.details.missingOIDCScope as string[] | undefined) ?? [];
    // A new grant decides every requested scope, not only those an earlier grant lacked.
    const toDecide = (missing: string[]): string[] => (earlier ? missing : [...new Set([...missing, ...requested])]);
    for (const scope of toDecide(missingOidc)) {
      if (kept.has(scope)) grant.addOIDCScope(scope);
      else grant.rejectOIDCScope(scope);
    }
    const missingResource = (details.prompt.details.missingResourceScopes as Record<string, string[]> | undefined) ?? {};
    for (const [resource, missing] of Object.entries(missingResource)) {
      for (const scope of toDecide(missing)) {
        if (kept.has(scope)) grant.addResourceScope(resource, scope);
        else grant.rejectResourceScope(resource, scope);
      }
    }
    const grantId = await grant.save();
    await this.grants.setOrganization(grantId, organizationId);
    consentDecisions.add(req.raw);
    await this.finish(req, reply, { consent: { grantId } }, true);
  }

  /** The pending interaction, or undefined after answering with an error page. */
  private async details(uid: string, req: FastifyRequest, reply: FastifyReply, form?: Form): Promise<InteractionDetails | undefined> {
    let details: InteractionDetails;
    try {
      details = await this.oauth.provider.interactionDetails(req.raw, reply.raw);
    } catch {
      this.html(reply, 400, problemPage('This sign-in request has expired or is unknown. Start again from the app.'));
      return undefined;
    }
    if (details.uid !== uid || (req.method !== 'GET' && !this.oauth.csrf.valid(uid, field(form, 'csrf')))) {
      this.html(reply, 400, problemPage('This form is not valid for the current sign-in request. Start again from the app.'));
      return undefined;
    }
    return details;
  }

  /** The page that stands instead of consent while the user's email is not verified. */
  private async showVerifyFirst(
    details: InteractionDetails,
    reply: FastifyReply,
    status: number,
    notice: { sent?: boolean; error?: string },
  ): Promise<void> {
    const email = (await this.users.findById(details.session?.accountId ?? ''))?.email ?? '';
    const page = verifyFirstPage({
      path: interactionPath(details.returnTo),
      csrf: this.oauth.csrf.token(details.uid),
      clientName: await this.clientName(details),
      email,
      ...notice,
    });
    this.html(reply, status, page);
  }

  /**
   * The consent page offers the requested scopes some role of the user allows; the chosen
   * organization's role bounds what is granted. A user whose email is not verified gets the page
   * asking to verify it instead (403): nothing can be approved until then.
   */
  private async showConsent(details: InteractionDetails, reply: FastifyReply, status: number, error?: string): Promise<void> {
    if (!(await this.emails.verified(details.session?.accountId ?? ''))) {
      await this.showVerifyFirst(details, reply, 403, {});
      return;
    }
    const organizations = await this.organizationsOf(details.session?.accountId ?? '');
    const requested = requestedScopes(details);
    const offered = requested.filter((scope) => organizations.some((o) => ROLE_SCOPES[o.role].includes(scope)));
    const page = consentPage({
      path: interactionPath(details.returnTo),
      csrf: this.oauth.csrf.token(details.uid),
      clientName: await this.clientName(details),
      scopes: offered,
      unavailable: requested.filter((scope) => !offered.includes(scope)),
      narrowedByOrganization: organizations.some((o) => offered.some((scope) => !ROLE_SCOPES[o.role].includes(scope))),
      organizations,
      error,
    });
    this.html(reply, status, page);
  }

  private async organizationsOf(userId: string): Promise<(OrganizationChoice & { role: MemberRole })[]> {
    const memberships = await this.users.memberships(userId);
    const choices: (OrganizationChoice & { role: MemberRole })[] = [];
    for (const m of memberships) {
      const org = await this.organizations.findById(m.organizationId);
      if (org) choices.push({ id: org.id, name: org.name, role: m.role });
    }
    return choices;
  }

  private async clientName(details: InteractionDetails): Promise<string> {
    const client = await this.oauth.provider.Client.find(String(details.params.client_id));
    return client?.clientName ?? client?.clientId ?? 'An application';
  }

  /**
   * Records the result and resumes the authorization on this same request (the page lies under
   * the resume path, so the resume cookie came with it): Approve and Deny answer the 302 to the
   * client's redirect_uri themselves, and a sign-in answers the way on to consent. The request
   * is the provider's GET of the resume path while it answers, then the POST again for the logs.
   */
  private async finish(req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>, merge: boolean): Promise<void> {
    const returnTo = await this.oauth.provider.interactionResult(req.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    const { method, url } = req.raw;
    req.raw.method = 'GET';
    req.raw.url = new URL(returnTo).pathname;
    try {
      await answerByProvider(this.oauth, req, reply);
    } finally {
      req.raw.method = method;
      req.raw.url = url;
    }
  }

  private html(reply: FastifyReply, status: number, body: string): void {
    void reply.code(status).headers(PAGE_HEADERS).send(body);
  }
}
