import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { AnalyticsView, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { UuidParam } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('analytics')
@Controller('signups/:id/analytics')
export class AnalyticsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @Operation('signups.analytics')
  @ApiOperation({ summary: 'Fill rates, gaps and response times of a signup, computed live' })
  @ApiOkResponse({ type: AnalyticsView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  get(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<AnalyticsView> {
    return this.bus.request('signups.analytics', { principal, signupId });
  }
}
