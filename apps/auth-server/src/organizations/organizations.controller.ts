import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { AdminCreateOrgDto, AdminUpdateOrgDto, type OrganizationView, validateInput } from '#libs/contracts';
import { AdminRoute } from '../admin/admin-token.guard.js';
import { OrganizationsService } from './organizations.service.js';

@Controller('admin/organizations')
export class OrganizationsAdminController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @AdminRoute()
  async create(@Body() body: unknown): Promise<OrganizationView> {
    return this.organizations.create(await validateInput(AdminCreateOrgDto, body));
  }

  @Get(':id')
  @AdminRoute()
  get(@Param('id') id: string): Promise<OrganizationView> {
    return this.organizations.get(id);
  }

  @Patch(':id')
  @AdminRoute()
  async update(@Param('id') id: string, @Body() body: unknown): Promise<OrganizationView> {
    const { tier, timeZone } = await validateInput(AdminUpdateOrgDto, body);
    return this.organizations.update(id, { tier, timeZone });
  }
}
