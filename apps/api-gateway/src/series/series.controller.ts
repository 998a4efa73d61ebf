import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { type Principal, SignupListView, type SignupView } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { UuidParam } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** The acts on every signup of a series at once (POST /signups/{id}/duplicate makes one). */
@ApiTags('signups')
@Controller('series')
export class SeriesController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post(':seriesId/publish')
  @HttpCode(200)
  @Operation('signups.series.publish')
  @ApiOperation({
    summary: 'Publish every draft of a series, in one transaction',
    description: "Answers the signups it published, by event date (none when none was a draft). Another organization's series is 404.",
  })
  @ApiOkResponse({ type: SignupListView })
  @ApiProblems(['scope_required', 'not_found', 'validation_failed'])
  publish(@UuidParam('seriesId') seriesId: string, @CurrentPrincipal() principal: Principal): Promise<{ data: SignupView[] }> {
    return this.bus.request('signups.series.publish', { principal, seriesId });
  }

  @Post(':seriesId/close')
  @HttpCode(200)
  @Operation('signups.series.close')
  @ApiOperation({
    summary: 'Close every published signup of a series, in one transaction',
    description: "Drafts stay drafts. Answers the signups it closed, by event date. Another organization's series is 404.",
  })
  @ApiOkResponse({ type: SignupListView })
  @ApiProblems(['scope_required', 'not_found', 'validation_failed'])
  close(@UuidParam('seriesId') seriesId: string, @CurrentPrincipal() principal: Principal): Promise<{ data: SignupView[] }> {
    return this.bus.request('signups.series.close', { principal, seriesId });
  }
}
