import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Unmetered } from '#libs/scopes';
import { html, parseCookies } from '#libs/web';
import { TokenRequestFailed } from './auth-client.js';
import { DashboardService, safeReturn, seeOther } from './dashboard.service.js';
import { SCRIPT } from './script.js';
import { SESSION_COOKIE, SIGN_IN_COOKIE } from './sessions.js';
import { plainPage } from './views/frame.js';

const signInFailed = (message: string) => ({
  status: 400,
  page: plainPage(
    'Sign-in did not finish',
    html`<p role="alert">${message}</p><p><a class="button" href="/app/signin">Sign in again</a></p>`,
  ),
});

/**
 * Signing in and out of the dashboard: the code flow with PKCE against the auth-server, the
 * tokens kept in the session store, the browser given an opaque cookie.
 */
@ApiExcludeController()
@Controller('app')
@Auth.public()
export class SignInController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get()
  home(@Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.plain(reply, async () => seeOther('/app/signups'));
  }

  /** Starts a sign-in: the auth-server asks for the password, even when it remembers the browser. */
  @Get('signin')
  signIn(@Query('return') returnTo: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.plain(reply, () => this.authorize(reply, { returnTo: safeReturn(returnTo) }));
  }

  /** Switches organization: a new authorization for it (the password asked again, as at every sign-in). */
  @Post('organization')
  switchOrganization(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form }) => {
      const chosen = viewer.organizations.find((o) => o.id === form.organization);
      if (!chosen) return seeOther('/app/signups');
      return this.authorize(reply, { organization: chosen.id, returnTo: '/app/signups' });
    });
  }

  @Get('callback')
  callback(
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string | Buffer> {
    return this.dashboard.plain(reply, async () => {
      const { sessions, auth } = this.dashboard;
      const pending = await sessions.takeSignIn(parseCookies(req.headers.cookie).get(SIGN_IN_COOKIE), query.state);
      if (!pending) return signInFailed('This sign-in was started elsewhere or has expired.');
      reply.header('set-cookie', sessions.clearedCookie(SIGN_IN_COOKIE));
      if (query.error === 'access_denied') return signInFailed('Access was denied.');
      if (typeof query.code !== 'string') return signInFailed('The auth server did not finish the sign-in.');
      let value: string;
      try {
        value = await sessions.create(await auth.exchange(query.code, pending.verifier));
      } catch (err) {
        if (!(err instanceof TokenRequestFailed)) throw err;
        return signInFailed('The auth server did not accept this sign-in. It may have expired.');
      }
      await this.dashboard.endSession(parseCookies(req.headers.cookie).get(SESSION_COOKIE));
      reply.header('set-cookie', [sessions.clearedCookie(SIGN_IN_COOKIE), sessions.sessionCookie(value)]);
      return seeOther(pending.returnTo);
    });
  }

  @Post('signout')
  signOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.signOut(req, reply);
  }

  /** The dashboard's script, named by its content's hash: cached for a year, never stale. */
  @Get('assets/:name')
  @Unmetered()
  asset(@Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.plain(reply, async () =>
      name === SCRIPT.name
        ? {
            status: 200,
            body: SCRIPT.source,
            headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' },
          }
        : { status: 404, page: plainPage('Not found', html`<p>There is nothing here.</p>`) },
    );
  }

  @Get('signed-out')
  signedOut(@Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    return this.dashboard.plain(reply, async () => ({
      status: 200,
      page: plainPage('You are signed out', html`<p><a class="button" href="/app/signin">Sign in</a></p>`),
    }));
  }

  private async authorize(reply: FastifyReply, options: { organization?: string; returnTo: string }) {
    const request = this.dashboard.auth.authorization(options);
    const value = await this.dashboard.sessions.beginSignIn({
      state: request.state,
      verifier: request.verifier,
      returnTo: options.returnTo,
    });
    reply.header('set-cookie', this.dashboard.sessions.signInCookie(value));
    return seeOther(request.url);
  }
}
