import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { HoursReportQueryDto, HoursReportView, type Principal, REPORT_MAX_DAYS } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { NoStore } from '../http/personal-data.js';
import { ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('attendance')
@Controller('reports')
export class ReportsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get('hours')
  @Operation('signups.reports.hours')
  @NoStore()
  @ApiOperation({
    summary: 'Hours served over a range of days, per signup and per participant email',
    description:
      "The signups of the caller's organization and mode whose eventDate falls on a day (UTC) from `from` to `to`, both included. " +
      `\`to\` may not be before \`from\`, nor the range longer than ${REPORT_MAX_DAYS} days: 422 on \`to\`.`,
  })
  @ApiOkResponse({ type: HoursReportView })
  @ApiProblems(['scope_required', 'validation_failed'])
  hours(@ValidQuery(HoursReportQueryDto) query: HoursReportQueryDto, @CurrentPrincipal() principal: Principal): Promise<HoursReportView> {
    return this.bus.request('signups.reports.hours', { principal, query: { from: query.from, to: query.to } });
  }
}
