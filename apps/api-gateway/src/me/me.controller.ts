import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { MeView, OrganizationView, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

@ApiTags('account')
@Controller()
export class MeController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get('me')
  @Operation('auth.me')
  @ApiOperation({ summary: 'The user, organization, scopes and credential behind the calling credential' })
  @ApiOkResponse({ type: MeView })
  @ApiProblems([])
  me(@CurrentPrincipal() principal: Principal): Promise<MeView> {
    return this.bus.request('auth.me', { principal });
  }

  @Get('orgs/:id')
  @Operation('auth.orgs.get')
  @ApiOperation({ summary: "The caller's organization (any other id is not found)" })
  @ApiOkResponse({ type: OrganizationView })
  @ApiProblems(['not_found'])
  organization(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<OrganizationView> {
    return this.bus.request('auth.orgs.get', { principal, id });
  }
}
