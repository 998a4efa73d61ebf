import { Controller, Delete, Get, Inject, Patch, Post, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import {
  ListParticipantsQueryDto,
  type Page,
  ParticipantPageView,
  ParticipantView,
  type Principal,
  RegistrationDto,
  RegistrationResultView,
  toRegistrationInput,
  toUpdateRegistrationInput,
  UpdateParticipantDto,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { NoStore } from '../http/personal-data.js';
import { OptionalPrincipal } from '../http/public-params.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';
import { OPTIONAL_CREDENTIAL } from '../openapi/openapi.js';

@ApiTags('participants')
@Controller('signups/:id/participants')
export class ParticipantsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post()
  @Operation('signups.participants.register')
  @ApiExtension(OPTIONAL_CREDENTIAL, true)
  @ApiOperation({
    summary: 'Register a participant (no credential needed)',
    description:
      'Each selection is allocated on its own: the answer lists what was confirmed and what failed (reason `full` or `not_found`). ' +
      'Selection ids in `confirmed` and `failed` come back in canonical lower case, whatever case was sent. ' +
      '201 when a participant was stored (selections empty, or at least one confirmed or waitlisted), with the confirmationToken that lets ' +
      'the participant edit or cancel later: surface it to them and keep it. 200 when every selection failed: nothing is stored and there is no token. ' +
      "When the signup's waitlist is on, a selection that does not fit joins the line of its slot or item instead of failing, and " +
      'a registration past maxParticipants joins the line of the signup itself (type signup): `waitlisted` lists them with their positions, ' +
      'and a participant holding no slot or item yet has status waitlisted until a place is given (auto mode) or offered (offer mode). ' +
      'A credential is optional. One that is sent must be valid (a malformed, unknown or revoked one is refused with 401 even here); ' +
      'it then selects the rate tier and narrows the call to its own mode: a live key sees no sandbox signup and a sandbox key no live one (404), ' +
      'and its own organization hears 400 for its draft rather than 404 (an anonymous caller, or another organization, gets 404 for a draft).',
  })
  @ApiBody({ type: RegistrationDto })
  @ApiCreatedResponse({ type: RegistrationResultView, description: 'A participant was stored.' })
  @ApiOkResponse({ type: RegistrationResultView, description: 'Every selection failed; nothing was stored.' })
  @ApiProblems(['bad_request', 'not_found', 'validation_failed'], { credential: 'optional' })
  async register(
    @UuidParam('id') signupId: string,
    @ValidBody(RegistrationDto) input: RegistrationDto,
    @OptionalPrincipal() principal: Principal | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RegistrationResultView> {
    const result = await this.bus.request('signups.participants.register', {
      ...(principal && { principal }),
      signupId,
      input: toRegistrationInput(input),
    });
    if (result.confirmationToken === undefined) reply.status(200);
    return result;
  }

  @Get()
  @Operation('signups.participants.list')
  @NoStore()
  @ApiOperation({
    summary: "List a signup's participants with their contacts, newest first",
    description: 'Every status but cancelled, or only the participants in `status` (cancelled ones included when asked for).',
  })
  @ApiOkResponse({ type: ParticipantPageView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  list(
    @UuidParam('id') signupId: string,
    @ValidQuery(ListParticipantsQueryDto) query: ListParticipantsQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<ParticipantView>> {
    const { limit, cursor, status, updated_since } = query;
    return this.bus.request('signups.participants.list', { principal, signupId, query: { limit, cursor, status, updated_since } });
  }

  @Get(':participantId')
  @Operation('signups.participants.get')
  @NoStore()
  @ApiOperation({
    summary: 'One participant of a signup, with its contacts, as the list shows it (any status, cancelled included)',
    description: 'Its ETag is what If-Match on the edit, cancellation and attendance of the participant is compared with.',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  get(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.participants.get', { principal, signupId, id });
  }

  @Patch(':participantId')
  @Operation('signups.participants.update')
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Edit a registration as the organizer; selections are re-allocated all or nothing',
    description: 'Answers the participant as GET /signups/{id}/participants/{participantId} does, with its new ETag.',
  })
  @ApiBody({ type: UpdateParticipantDto })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  update(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @ValidBody(UpdateParticipantDto) input: UpdateParticipantDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    const changes = { ...toUpdateRegistrationInput(input), ...(input.email !== undefined && { email: input.email }) };
    return this.bus.request('signups.participants.update', { principal, signupId, id, ifMatch, input: changes });
  }

  @Delete(':participantId')
  @Operation('signups.participants.delete')
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Cancel a participant, freeing what they held; answers the cancelled participant',
    description:
      'The participant stays, with status cancelled, cancelledAt and the selections it held as the record; it leaves every waitlist it ' +
      'was in, and each freed place goes to the first in line who fits. Cancelling again answers the cancelled participant unchanged.',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  remove(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.participants.delete', { principal, signupId, id, ifMatch });
  }
}
