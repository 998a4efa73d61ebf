import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { EmailListView, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { NoStore } from '../http/personal-data.js';
import { UuidParam } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('reminders')
@Controller('signups/:id/emails')
export class EmailsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @NoStore()
  @Operation('reminders.emails.list')
  @ApiOperation({
    summary: 'The emails of a sandbox signup, newest first (stored, never sent)',
    description:
      'Every email the platform made for a sandbox signup (confirmations, notices, offers, reminders), as its participants would have ' +
      'received it: subject, text and HTML parts, the calendar invitation, and the links in them, which work. Sandbox email never leaves ' +
      'the platform. The newest 100; a live signup lists none (like the SMS outbox at GET /signups/{id}/reminders/outbox).',
  })
  @ApiOkResponse({ type: EmailListView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  list(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<EmailListView> {
    return this.bus.request('reminders.emails.list', { principal, signupId });
  }
}
