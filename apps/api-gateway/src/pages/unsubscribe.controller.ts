import { Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import type { Logger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { BUS, LOGGER } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import { html, layout } from '#libs/web';
import { respondWithPage } from './page-response.js';

/** The unsubscribe routes, outside the REST prefix. */
export const UNSUBSCRIBE_ROUTES = ['unsubscribe/:token'];

/** A sealed token (`v1.<iv>.<tag>.<ciphertext>`, base64url parts): anything else is no link of ours. */
const TOKEN = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{1,1000}$/;

/**
 * The unsubscribe link of every reminder email (List-Unsubscribe): a GET shows a button, and a
 * POST unsubscribes, from our button or from a mail client's one-click (RFC 8058, whose body
 * `List-Unsubscribe=One-Click` is not looked at: the token says everything). It stops that
 * organization's reminder emails to that address, nothing else. A GET never unsubscribes: mail
 * scanners follow links.
 */
@ApiExcludeController()
@Controller()
export class UnsubscribeController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('unsubscribe/:token')
  @Auth.public()
  confirm(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return respondWithPage(reply, this.logger, async () => {
      if (!TOKEN.test(token)) throw new ProblemError('not_found');
      return {
        status: 200,
        page: layout({
          title: 'Unsubscribe from reminders',
          main: html`<h1>Unsubscribe from reminders</h1>
<p>Stop reminder emails from this organization to your address. You will still get the confirmations and notices about your own registrations.</p>
<form method="post" action="/unsubscribe/${token}">
<button type="submit">Unsubscribe</button>
</form>`,
        }),
      };
    });
  }

  @Post('unsubscribe/:token')
  @HttpCode(200)
  @Auth.public()
  unsubscribe(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return respondWithPage(reply, this.logger, async () => {
      if (!TOKEN.test(token)) throw new ProblemError('not_found');
      await this.bus.request('reminders.unsubscribe', { token });
      return {
        status: 200,
        page: layout({
          title: 'Unsubscribed',
          main: html`<h1>You are unsubscribed</h1>
<p>This organization will send no more reminder emails to your address.</p>`,
        }),
      };
    });
  }
}
