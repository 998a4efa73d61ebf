import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { Principal } from '#libs/contracts';
import { BUS } from '#libs/runtime';

/**
 * The time zone of the caller's organization, asked of the auth-server (auth.orgs.get) when a
 * signup is created without one and when a draft reads times: never on a registration.
 */
@Injectable()
export class OrganizationTimeZone {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async of(principal: Principal): Promise<string> {
    return (await this.bus.request('auth.orgs.get', { principal, id: principal.organizationId })).timeZone;
  }
}
