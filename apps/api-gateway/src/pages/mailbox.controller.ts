import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import { isUuid } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { BUS, LOGGER } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import { mailboxMessagePage, mailboxPage } from './mailbox-views.js';
import { respondWithPage } from './page-response.js';

/** The mailbox's routes, outside the REST prefix. */
export const MAILBOX_ROUTES = ['mailbox', 'mailbox/:id', 'mailbox/:id/html', 'mailbox/:id/invite.ics'];

/** The newest stored emails the mailbox lists. */
const MAILBOX_SIZE = 100;

/**
 * The HTML part of an email, alone: sandboxed (no script, no form, an opaque origin), with its
 * inline styles and nothing loaded from elsewhere, so an email that reached the mailbox cannot
 * act on this origin.
 */
const EMAIL_HTML_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/**
 * The mailbox of a local run (MAILBOX_PAGE, on under `npm start`): the emails stored instead of
 * sent, for anyone who reaches the port, with their links working, so a newcomer can click their
 * way through confirmations, offers and resets. Never on in production: it has no sign-in.
 */
@ApiExcludeController()
@Controller()
export class MailboxController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('mailbox')
  @Auth.public()
  list(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return respondWithPage(reply, this.logger, async () => {
      const { data } = await this.bus.request('reminders.mailbox.list', { limit: MAILBOX_SIZE });
      return { status: 200, page: mailboxPage(data) };
    });
  }

  @Get('mailbox/:id')
  @Auth.public()
  message(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return respondWithPage(reply, this.logger, async () => ({ status: 200, page: mailboxMessagePage(await this.email(id)) }));
  }

  @Get('mailbox/:id/html')
  @Auth.public()
  async htmlPart(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const email = await this.email(id).catch(() => undefined);
    if (!email) return respondWithPage(reply, this.logger, () => Promise.reject(new ProblemError('not_found')));
    reply.headers(EMAIL_HTML_HEADERS);
    return email.html;
  }

  @Get('mailbox/:id/invite.ics')
  @Auth.public()
  async invite(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const email = await this.email(id).catch(() => undefined);
    if (!email?.calendar) return respondWithPage(reply, this.logger, () => Promise.reject(new ProblemError('not_found')));
    reply.headers({
      'content-type': `text/calendar; charset=utf-8; method=${email.calendar.method}`,
      'content-disposition': 'attachment; filename="invite.ics"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    return email.calendar.ics;
  }

  private email(id: string) {
    if (!isUuid(id)) return Promise.reject(new ProblemError('not_found'));
    return this.bus.request('reminders.mailbox.get', { id });
  }
}
