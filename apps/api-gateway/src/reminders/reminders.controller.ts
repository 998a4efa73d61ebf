import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import {
  OutboxListView,
  type OutboxMessageView,
  type Principal,
  ReminderPassView,
  ReminderStatusView,
  SendRemindersDto,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { UuidParam, ValidOptionalBody } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('reminders')
@Controller('signups/:id/reminders')
export class RemindersController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post('send')
  @HttpCode(200)
  @Operation('reminders.passes.run')
  @ApiOperation({
    summary: 'Remind the participants of a published signup, by text, email or both',
    description:
      'channel sms (the default): texts each participant with a phone who has not opted out (STOP) and was not reminded of this signup yet, ' +
      "up to what remains of the organization's daily SMS ceiling (pro and org tiers). sent + failed ≤ eligible; participants not texted " +
      'stay eligible for the next pass. A number that is not a mobile (premium rate, shared cost, toll free, VoIP, fixed line…) or whose ' +
      'country the platform does not text is never texted: notEligible counts those by reason, and their registrations stand. ' +
      'channel email (every tier): emails each address of a confirmed participant not reminded of this signup yet, one per address, up to ' +
      "what remains of the organization's daily email ceiling; addresses that bounced or unsubscribed are counted in notEligible. " +
      'channel both: each channel in turn. The totals are the sums; channels holds each channel’s own counts. ' +
      'Sandbox keys never reach the SMS provider or a mail server: their reminders count as sent, use no ceiling, and are listed at ' +
      'GET /signups/{id}/reminders/outbox and GET /signups/{id}/emails. 429 daily_ceiling_exceeded when nothing remains of the ceiling of ' +
      'every channel asked for. When nothing was sent and the SMS provider failed every text: 502 upstream_unavailable, or 504 when every ' +
      'text timed out; everyone stays eligible.',
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
  send(
    @UuidParam('id') signupId: string,
    @ValidOptionalBody(SendRemindersDto) input: SendRemindersDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReminderPassView> {
    return this.bus.request('reminders.passes.run', { principal, signupId, ...(input.channel && { channel: input.channel }) });
  }

  @Get()
  @Operation('reminders.status.get')
  @ApiOperation({
    summary: "What a reminder pass may still send today by SMS and by email, and the signup's reminders so far",
    description:
      "channels.sms and channels.email: whether the organization's tier offers the channel (texts from pro, email on every tier), its " +
      'ceiling per UTC day, what the live signups of the organization used of it today, what remains, and when the count starts again ' +
      '(the next UTC midnight). The email ceiling is shared with the confirmations and notices of live signups. A sandbox signup ' +
      '(usesCeiling false) uses none of it: its reminders are stored, never sent. reminded: texts sent and addresses emailed for this ' +
      'signup so far, by manual and automatic passes; lastSentAt: the latest of them. Which participants were reminded, and when first: ' +
      'remindedAt on GET /signups/{id}/participants.',
  })
  @ApiOkResponse({ type: ReminderStatusView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  status(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<ReminderStatusView> {
    return this.bus.request('reminders.status.get', { principal, signupId });
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
