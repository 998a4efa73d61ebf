import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { OutboxListView, type OutboxMessageView, type Principal, ReminderPassView } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { UuidParam } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('reminders')
@Controller('signups/:id/reminders')
export class RemindersController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post('send')
  @HttpCode(200)
  @Operation('reminders.passes.run')
  @ApiOperation({
    summary: 'Text a reminder to the participants of a published signup who gave a phone',
    description:
      'Texts each participant with a phone who has not opted out (STOP) and was not reminded of this signup yet, up to what remains of the ' +
      "organization's daily SMS ceiling. sent + failed ≤ eligible; participants not texted stay eligible for the next pass. " +
      'A number that is not a mobile (premium rate, shared cost, toll free, VoIP, fixed line…) or whose country the platform does not text ' +
      'is never texted: notEligible counts those by reason, and their registrations stand. ' +
      'Sandbox keys never reach the SMS provider: their texts count as sent, use no ceiling, and are listed at GET /signups/{id}/reminders/outbox. ' +
      'When the provider fails every text of the pass: 502 upstream_unavailable, or 504 when every text timed out; everyone stays eligible.',
  })
  @ApiOkResponse({ type: ReminderPassView })
  @ApiProblems([
    'scope_required',
    'upgrade_required',
    'forbidden',
    'not_found',
    'bad_request',
    'validation_failed',
    'daily_ceiling_exceeded',
    'upstream_unavailable',
  ])
  send(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<ReminderPassView> {
    return this.bus.request('reminders.passes.run', { principal, signupId });
  }

  @Get('outbox')
  @Operation('reminders.outbox.list')
  @ApiOperation({ summary: 'The texts sandbox reminder passes stored for a signup, oldest first (never sent)' })
  @ApiOkResponse({ type: OutboxListView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  outbox(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<{ data: OutboxMessageView[] }> {
    return this.bus.request('reminders.outbox.list', { principal, signupId });
  }
}
