import { Controller, Delete, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus, JsonText } from '#libs/bus';
import {
  CreateSignupDto,
  DraftFromDescriptionDto,
  DuplicateSignupDto,
  ListSignupsQueryDto,
  MAX_SERIES_COPIES,
  type Page,
  type Principal,
  SignupDraftView,
  SignupListView,
  SignupPageView,
  SignupView,
  UpdateSignupDto,
  type ZonedSignupDraft,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { JsonTextAnswer } from '../http/json-text.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('signups')
@Controller('signups')
export class SignupsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @Operation('signups.list')
  @ApiOperation({ summary: 'List signups, newest event first' })
  @ApiOkResponse({ type: SignupPageView })
  @ApiProblems(['scope_required', 'validation_failed'])
  @JsonTextAnswer()
  list(
    @ValidQuery(ListSignupsQueryDto) query: ListSignupsQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<JsonText<Page<SignupView>>> {
    return this.bus.requestJson('signups.list', {
      principal,
      query: {
        limit: query.limit,
        cursor: query.cursor,
        status: query.status,
        seriesId: query.seriesId,
        updated_since: query.updated_since,
      },
    });
  }

  @Post()
  @Operation('signups.create')
  @ApiOperation({
    summary: 'Create a signup (status draft); at most SIGNUPS_PER_DAY (50) per organization per UTC day',
    description:
      '`waitlist` is off unless `enabled`: with it on, a registration that does not fit a slot, an item or maxParticipants joins ' +
      'that line instead of failing; `mode` auto gives a freed place to the first in line at once, offer holds it for them for ' +
      '`offerMinutes` (default 1440).',
  })
  @ApiBody({ type: CreateSignupDto })
  @ApiCreatedResponse({ type: SignupView })
  @ApiProblems(['scope_required', 'validation_failed', 'daily_ceiling_exceeded'])
  create(@ValidBody(CreateSignupDto) input: CreateSignupDto, @CurrentPrincipal() principal: Principal): Promise<SignupView> {
    return this.bus.request('signups.create', { principal, input: { ...input } });
  }

  @Post('from-description')
  @HttpCode(200)
  @Operation('signups.drafts.create')
  @ApiOperation({
    summary: 'Draft a signup from a free-text description; creates nothing',
    description:
      'Answers only the draft: create the signup with POST /signups and its slots and items with their endpoints. ' +
      "Uses one of the organization's monthly AI drafts when a draft comes back (402 upgrade_required past the quota); sandbox keys use the offline drafter and no quota.",
  })
  @ApiBody({ type: DraftFromDescriptionDto })
  @ApiOkResponse({ type: SignupDraftView })
  @ApiProblems(['scope_required', 'validation_failed', 'upgrade_required', 'upstream_unavailable'])
  draft(
    @ValidBody(DraftFromDescriptionDto) input: DraftFromDescriptionDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ draft: ZonedSignupDraft }> {
    return this.bus.request('signups.drafts.create', { principal, input: { description: input.description, timeZone: input.timeZone } });
  }

  @Get(':id')
  @Operation('signups.get')
  @ApiOperation({ summary: 'Read a signup with its slots and items' })
  @ApiOkResponse({ type: SignupView })
  @ApiProblems(['scope_required', 'not_found', 'validation_failed'])
  @JsonTextAnswer()
  get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<JsonText<SignupView>> {
    return this.bus.requestJson('signups.get', { principal, id });
  }

  @Patch(':id')
  @Operation('signups.update')
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Edit a signup; null clears a field',
    description:
      '`waitlist` changes the settings given and keeps the others. Raising or clearing maxParticipants gives the new places to the ' +
      "first in the signup's own line at once. Answers the signup as GET /signups/{id} does, with its slots and items and its new ETag.",
  })
  @ApiBody({ type: UpdateSignupDto })
  @ApiOkResponse({ type: SignupView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  update(
    @UuidParam('id') id: string,
    @ValidBody(UpdateSignupDto) input: UpdateSignupDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<SignupView> {
    return this.bus.request('signups.update', { principal, id, ifMatch, input: { ...input } });
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation('signups.delete')
  @IfMatchChecked()
  @ApiOperation({ summary: 'Delete a signup with its participants' })
  @ApiNoContentResponse()
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  async remove(
    @UuidParam('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<void> {
    await this.bus.request('signups.delete', { principal, id, ifMatch });
  }

  @Post(':id/publish')
  @HttpCode(200)
  @Operation('signups.publish')
  @ApiOperation({ summary: 'Publish a draft (idempotent on published; 409 on closed)' })
  @ApiOkResponse({ type: SignupView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  publish(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SignupView> {
    return this.bus.request('signups.publish', { principal, id });
  }

  @Post(':id/close')
  @HttpCode(200)
  @Operation('signups.close')
  @ApiOperation({ summary: 'Close a published signup (idempotent on closed; 409 on draft)' })
  @ApiOkResponse({ type: SignupView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  close(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SignupView> {
    return this.bus.request('signups.close', { principal, id });
  }

  @Post(':id/duplicate')
  @Operation('signups.duplicate')
  @ApiOperation({
    summary: 'Duplicate a signup into a series of drafts at other dates',
    description:
      "Exactly one of `eventDate`, `eventDates` or `recurrence` (daily, weekly or monthly every `interval`, at the signup's wall-clock " +
      'time in its time zone, `until` an instant or for `count` copies). Each copy is a draft with the settings, questions, slots and ' +
      'items of the signup, its times moved by the offset between the two event dates, no participants and a new slug. The signup and ' +
      `its copies share a \`seriesId\`. Every date must be in the future; at most ${MAX_SERIES_COPIES} copies per call, each counting ` +
      'against SIGNUPS_PER_DAY: past it none is created (429). Answers the copies by event date.',
  })
  @ApiBody({ type: DuplicateSignupDto })
  @ApiCreatedResponse({ type: SignupListView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed', 'daily_ceiling_exceeded'])
  duplicate(
    @UuidParam('id') id: string,
    @ValidBody(DuplicateSignupDto) input: DuplicateSignupDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ data: SignupView[] }> {
    return this.bus.request('signups.duplicate', { principal, id, input: { ...input } });
  }
}
