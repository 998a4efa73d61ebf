import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import { buildCalendar, participantEvents, signupEvents, uidHost } from '#libs/calendar';
import { CALENDAR_FEED_TOKEN_PATTERN, PARTICIPANT_CALENDAR_TOKEN_PATTERN } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG, BUS } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import type { GatewayConfig } from '../gateway.config.js';
import { SlugOrIdParam } from '../http/public-params.js';

/** A public feed may be kept by caches and calendar clients for 5 minutes: it holds only what the signup page shows. */
const PUBLIC_FEED_CACHE = 'public, max-age=300';
/** An organization's feed's name, by mode. */
const FEED_NAME = { live: 'Signups', sandbox: 'Signups (sandbox)' };

/** The calendar text as the answer, with its type and file name. */
function asCalendarFile(reply: FastifyReply, text: string, file: string): string {
  reply.header('content-type', 'text/calendar; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${file}.ics"`);
  reply.header('x-content-type-options', 'nosniff');
  return text;
}

/**
 * iCalendar files (libs/calendar) to download or subscribe to, without a credential: a published
 * signup's events, and by a secret address a participant's own (by their read-only calendar token,
 * never the confirmation token, which a calendar service would then keep) and an organization's
 * feed (by its feed token). They ask the bus subjects the pages ask; what is not found answers a problem.
 */
@ApiExcludeController()
@Controller()
export class CalendarsController {
  private readonly host: string;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(APP_CONFIG) config: GatewayConfig,
  ) {
    this.host = uidHost(config.publicBaseUrl);
  }

  /** One event per slot, or one at the signup's date; drafts and unknown signups are not found. */
  @Get('s/:slug/calendar.ics')
  @Auth.public()
  async signup(@SlugOrIdParam('slug') slug: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const signup = await this.bus.request('signups.public.get', { slugOrId: slug });
    const text = buildCalendar({ method: 'PUBLISH', name: signup.title, events: signupEvents(signup, this.host) });
    reply.header('cache-control', PUBLIC_FEED_CACHE);
    return asCalendarFile(reply, text, signup.slug);
  }

  /**
   * A calendar by its secret address (`calendars/<token>.ics`): an organization's feed (`cal_…`)
   * or a participant's own events (`pcal_…`, the read-only calendar token, cancelled events marked
   * so). A revoked, unknown or malformed address is not found.
   */
  @Get('calendars/:feed')
  @Auth.public()
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async calendar(@Param('feed') feed: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const token = feed.endsWith('.ics') ? feed.slice(0, -'.ics'.length) : '';
    if (CALENDAR_FEED_TOKEN_PATTERN.test(token)) return asCalendarFile(reply, await this.organization(token), 'signups');
    if (!PARTICIPANT_CALENDAR_TOKEN_PATTERN.test(token)) throw new ProblemError('not_found', 'No calendar has this address.');
    const { signup, participant } = await this.bus.request('signups.registrations.calendar', { token });
    const text = buildCalendar({ method: 'PUBLISH', name: signup.title, events: participantEvents(signup, participant, this.host) });
    return asCalendarFile(reply, text, signup.slug);
  }

  /** The organization's feed: its signups' events in the feed's mode. */
  private async organization(token: string): Promise<string> {
    const { livemode, signups } = await this.bus.request('signups.calendar_feed.events', { token });
    return buildCalendar({
      method: 'PUBLISH',
      name: livemode ? FEED_NAME.live : FEED_NAME.sandbox,
      events: signups.flatMap((signup) => signupEvents(signup, this.host)),
    });
  }
}
