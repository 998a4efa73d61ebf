import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { Tier } from '#libs/config';
import { BUS } from '#libs/runtime';

/** How long a profile is reused before it is asked again (a renamed organization signs its emails with the new name after this). */
const TTL_MS = 5 * 60_000;
/** Profiles kept at most; past it the oldest goes. */
const MAX_PROFILES = 10_000;

export interface OrganizationProfile {
  name: string;
  tier: Tier;
}

/** The organizations' names and tiers (the sender names of their emails, and their ceilings), from the auth-server (auth.orgs.profile), kept a few minutes. */
@Injectable()
export class OrganizationProfiles {
  private readonly profiles = new Map<string, { profile: OrganizationProfile; until: number }>();

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async of(organizationId: string): Promise<OrganizationProfile> {
    const known = this.profiles.get(organizationId);
    if (known && known.until > Date.now()) return known.profile;
    const profile = await this.bus.request('auth.orgs.profile', { organizationId });
    this.profiles.delete(organizationId);
    if (this.profiles.size >= MAX_PROFILES) this.profiles.delete(this.profiles.keys().next().value!);
    this.profiles.set(organizationId, { profile, until: Date.now() + TTL_MS });
    return profile;
  }
}
