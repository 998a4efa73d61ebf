import { Body, Controller, Post } from '@nestjs/common';
import { AdminCreateUserDto, type UserView, validateInput } from '#libs/contracts';
import { AdminRoute } from '../admin/admin-token.guard.js';
import { UsersService } from './users.service.js';

@Controller('admin/users')
export class UsersAdminController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @AdminRoute()
  async create(@Body() body: unknown): Promise<UserView> {
    return this.users.create(await validateInput(AdminCreateUserDto, body));
  }
}
