import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { AdminCreateApiKeyDto, type ApiKeyView, type CreatedApiKey, validateInput } from '#libs/contracts';
import { AdminRoute } from '../admin/admin-token.guard.js';
import { ApiKeysService } from './api-keys.service.js';

@Controller('admin/api-keys')
export class ApiKeysAdminController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @AdminRoute()
  async create(@Body() body: unknown): Promise<CreatedApiKey> {
    return this.apiKeys.create(await validateInput(AdminCreateApiKeyDto, body));
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @AdminRoute()
  revoke(@Param('id') id: string): Promise<ApiKeyView> {
    return this.apiKeys.revoke(id);
  }
}
