import { Controller, Delete, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { RegistrationView, toUpdateRegistrationInput, UpdateRegistrationDto } from '#libs/contracts';
import { Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { SecretUrlPersonalData } from '../http/personal-data.js';
import { ConfirmationTokenParam } from '../http/public-params.js';
import { UuidParam, ValidBody } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/**
 * A participant manages their own registration with the confirmation token (no credential).
 * The URL holds the token and the answers personal data: every answer is no-store, no-referrer.
 */
@ApiTags('registrations')
@Controller('registrations/:confirmationToken')
export class RegistrationsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @Operation('signups.registrations.get')
  @SecretUrlPersonalData()
  @ApiOperation({ summary: 'The registration behind a confirmation token, with its signup' })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found'], { credential: 'none' })
  get(@ConfirmationTokenParam() token: string): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.get', { token });
  }

  @Patch()
  @Operation('signups.registrations.update')
  @SecretUrlPersonalData()
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Change name, phone or selections (selections are re-allocated all or nothing)',
    description: 'Answers the registration as GET /registrations/{confirmationToken} does, with its new ETag.',
  })
  @ApiBody({ type: UpdateRegistrationDto })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request', 'conflict', 'validation_failed'], { credential: 'none' })
  update(
    @ConfirmationTokenParam() token: string,
    @ValidBody(UpdateRegistrationDto) input: UpdateRegistrationDto,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.update', { token, ifMatch, input: toUpdateRegistrationInput(input) });
  }

  @Delete()
  @Operation('signups.registrations.cancel')
  @SecretUrlPersonalData()
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Cancel the registration, freeing what it held; answers the cancelled registration',
    description:
      'The participant stays, with status cancelled, cancelledAt and the selections it held as the record; it leaves every waitlist it ' +
      'was in, and each freed place goes to the first in line who fits. Cancelling again answers the cancelled registration unchanged.',
  })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request'], { credential: 'none' })
  cancel(@ConfirmationTokenParam() token: string, @IfMatch() ifMatch: string | undefined): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.cancel', { token, ifMatch });
  }

  @Post('waitlist/:entryId/accept')
  @HttpCode(200)
  @Operation('signups.registrations.accept')
  @SecretUrlPersonalData()
  @ApiOperation({
    summary: 'Accept the place offered for a waitlist entry (participant.waitlist[].id, state offered)',
    description:
      "The place held by the offer becomes the participant's. Accepting again answers the registration unchanged. 409 conflict when the " +
      'offer expired (the place passed to the next in line), when nothing is offered yet, or when the entry left its line. 404 for an ' +
      'entry of another registration. 400 once the signup takes no more changes by token (closed, or its event started).',
  })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request', 'conflict', 'validation_failed'], { credential: 'none' })
  accept(@ConfirmationTokenParam() token: string, @UuidParam('entryId') entryId: string): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.accept', { token, entryId });
  }

  @Delete('waitlist/:entryId')
  @Operation('signups.registrations.leave')
  @SecretUrlPersonalData()
  @IfMatchChecked('registration')
  @ApiOperation({
    summary: 'Leave a waitlist, declining its offer if one is held; answers the registration',
    description:
      'The entries behind move up, and an offered place passes to the next in line. A registration left holding nothing and waiting ' +
      'for nothing is cancelled. Leaving a line already left answers the registration unchanged. 404 for an entry of another ' +
      'registration; 400 once the signup takes no more changes by token.',
  })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request', 'validation_failed'], { credential: 'none' })
  leave(
    @ConfirmationTokenParam() token: string,
    @UuidParam('entryId') entryId: string,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.leave', { token, entryId, ifMatch });
  }
}
