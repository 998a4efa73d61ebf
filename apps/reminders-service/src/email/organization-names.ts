import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import { BUS } from '#libs/runtime';

/** How long a name is reused before it is asked again (a renamed organization signs its emails with the new name after this). */
const TTL_MS = 5 * 60_000;
/** Names kept at most; past it the oldest goes. */
const MAX_NAMES = 10_000;

/** The organizations' names, the sender names of their emails, from the auth-server (auth.orgs.name), kept a few minutes. */
@Injectable()
export class OrganizationNames {
  private readonly names = new Map<string, { name: string; until: number }>();

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async of(organizationId: string): Promise<string> {
    const known = this.names.get(organizationId);
    if (known && known.until > Date.now()) return known.name;
    const { name } = await this.bus.request('auth.orgs.name', { organizationId });
    this.names.delete(organizationId);
    if (this.names.size >= MAX_NAMES) this.names.delete(this.names.keys().next().value!);
    this.names.set(organizationId, { name, until: Date.now() + TTL_MS });
    return name;
  }
}
