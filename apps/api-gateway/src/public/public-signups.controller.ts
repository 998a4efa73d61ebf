import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { PublicSignupView } from '#libs/contracts';
import { Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { SlugOrIdParam } from '../http/public-params.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('public')
@Controller('public/signups')
export class PublicSignupsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get(':slugOrId')
  @Operation('signups.public.get')
  @ApiOperation({
    summary: 'A published or closed signup as anyone may see it (no credential)',
    description:
      'Slots and items with what remains of each; never participant names or contacts. A draft, or anything that is not a slug or uuid, is not found.',
  })
  @ApiOkResponse({ type: PublicSignupView })
  @ApiProblems(['not_found'], { credential: 'none' })
  get(@SlugOrIdParam('slugOrId') slugOrId: string): Promise<PublicSignupView> {
    return this.bus.request('signups.public.get', { slugOrId });
  }
}
