import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import type { AuthConfig } from '../auth.config.js';
import { checkAdminAuthorization } from './admin-token.js';

/** Lets a request through only with `Authorization: Bearer <ADMIN_TOKEN>`. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AuthConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: { authorization?: string } }>();
    checkAdminAuthorization(headers.authorization, this.config.adminToken);
    return true;
  }
}

/** An operator route: declared admin for the route walk, guarded by the admin token. */
export function AdminRoute(): MethodDecorator & ClassDecorator {
  return applyDecorators(Auth.admin(), UseGuards(AdminTokenGuard));
}
