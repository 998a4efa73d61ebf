import { Controller, Delete, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import {
  type Page,
  ParticipantView,
  type Principal,
  type WaitlistedParticipantView,
  WaitlistPageView,
  WaitlistQueryDto,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { NoStore } from '../http/personal-data.js';
import { UuidParam, ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** The organizer's side of a signup's waitlists: read the lines in order, move someone in by hand or take them out. */
@ApiTags('waitlist')
@Controller('signups/:id/waitlist')
export class WaitlistController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @Operation('signups.waitlist.list')
  @NoStore()
  @ApiOperation({
    summary: "Read a signup's waitlists in order, with positions and who waits",
    description:
      'Entries of every line (the signup itself when maxParticipants is reached, each slot, each item), oldest first: ' +
      'a waiting entry has its position in its line (1 for the next), an offered one holds a place until offerExpiresAt. ' +
      'Filter with type and targetId.',
  })
  @ApiOkResponse({ type: WaitlistPageView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  list(
    @UuidParam('id') signupId: string,
    @ValidQuery(WaitlistQueryDto) query: WaitlistQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<WaitlistedParticipantView>> {
    const { limit, cursor, type, targetId } = query;
    return this.bus.request('signups.waitlist.list', { principal, signupId, query: { limit, cursor, type, targetId } });
  }

  @Post(':entryId/promote')
  @HttpCode(200)
  @Operation('signups.waitlist.promote')
  @NoStore()
  @ApiOperation({
    summary: 'Move a waiting entry into its place by hand, ahead of the line; answers the participant',
    description:
      'A waiting entry takes a free place of its slot, item or signup now; an offered one is accepted for the participant. ' +
      '409 conflict when no place is free (raise the limit or remove someone first), or when the entry is for a slot or item ' +
      'while the participant still waits for a place in the signup itself (promote that entry first). 404 for an entry that is ' +
      'no longer in a line.',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  promote(
    @UuidParam('id') signupId: string,
    @UuidParam('entryId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.waitlist.promote', { principal, signupId, id });
  }

  @Delete(':entryId')
  @Operation('signups.waitlist.remove')
  @IfMatchChecked('participant')
  @NoStore()
  @ApiOperation({
    summary: 'Take an entry out of its line; answers the participant',
    description:
      'The entries behind it move up; the place an offered entry held passes to the next in line. A participant left with ' +
      'nothing confirmed and no other line is cancelled. 404 for an entry that is no longer in a line (removed twice, say).',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  remove(
    @UuidParam('id') signupId: string,
    @UuidParam('entryId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.waitlist.remove', { principal, signupId, id, ifMatch });
  }
}
