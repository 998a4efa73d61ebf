import { Controller, Delete, Get, Inject, Patch } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { RegistrationView, toUpdateRegistrationInput, UpdateRegistrationDto } from '#libs/contracts';
import { Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { SecretUrlPersonalData } from '../http/personal-data.js';
import { ConfirmationTokenParam } from '../http/public-params.js';
import { ValidBody } from '../http/validation.pipes.js';
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
  @ApiOperation({ summary: 'Change name, phone or selections (selections are re-allocated all or nothing)' })
  @ApiBody({ type: UpdateRegistrationDto })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request', 'conflict', 'validation_failed'], { credential: 'none' })
  update(
    @ConfirmationTokenParam() token: string,
    @ValidBody(UpdateRegistrationDto) input: UpdateRegistrationDto,
  ): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.update', { token, input: toUpdateRegistrationInput(input) });
  }

  @Delete()
  @Operation('signups.registrations.cancel')
  @SecretUrlPersonalData()
  @ApiOperation({ summary: 'Cancel the registration, freeing what it held; answers the canceled registration' })
  @ApiOkResponse({ type: RegistrationView })
  @ApiProblems(['not_found', 'bad_request'], { credential: 'none' })
  cancel(@ConfirmationTokenParam() token: string): Promise<RegistrationView> {
    return this.bus.request('signups.registrations.cancel', { token });
  }
}
