import { Inject, Injectable } from '@nestjs/common';
import { ALL_EVENT_TYPES, type Principal } from '#libs/contracts';
import { SecretBox } from '#libs/crypto';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG } from '#libs/runtime';
import { checkTarget, type TargetPolicy, TargetRefused } from '../targets/index.js';
import type { WebhooksConfig } from '../webhooks.config.js';
import type { Endpoint } from './endpoint.js';

/** Omitted, or naming `*` among others: every type, stored as ["*"]; otherwise each type once (an empty list is refused earlier). */
export function normalizeEventTypes(eventTypes: string[] | undefined): string[] {
  if (eventTypes === undefined || eventTypes.includes(ALL_EVENT_TYPES)) return [ALL_EVENT_TYPES];
  return [...new Set(eventTypes)];
}

/** What every endpoint write shares: where a target may point, and the sealing of secrets. */
@Injectable()
export class EndpointRules {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) private readonly config: WebhooksConfig) {
    this.box = new SecretBox(config.secretKey);
  }

  /** https for live endpoints and no private target, unless WEBHOOK_ALLOW_PRIVATE_URLS. */
  policyFor(livemode: boolean): TargetPolicy {
    return { allowPrivate: this.config.allowPrivateUrls, requireHttps: livemode };
  }

  /** Checks a target the caller wants to register (stored as given); 422 on `url` when it may not receive webhooks. */
  async acceptUrl(principal: Principal, url: string): Promise<string> {
    try {
      await checkTarget(url, this.policyFor(principal.livemode));
      return url;
    } catch (err) {
      if (err instanceof TargetRefused)
        throw ProblemError.validation([{ path: 'url', message: err.reason }], 'The url cannot receive webhooks.');
      throw err;
    }
  }

  seal(secret: string): string {
    return this.box.seal(secret);
  }

  /** The secrets that sign now: the current one, and the previous one during the day after a rotation. */
  signingSecrets(
    endpoint: Pick<Endpoint, 'sealedSecret' | 'sealedPreviousSecret' | 'previousSecretExpiresAt'>,
    now = new Date(),
  ): string[] {
    const secrets = [this.box.open(endpoint.sealedSecret)];
    if (endpoint.sealedPreviousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(this.box.open(endpoint.sealedPreviousSecret));
    }
    return secrets;
  }

  get timeoutMs(): number {
    return this.config.timeoutMs;
  }

  get allowPrivateUrls(): boolean {
    return this.config.allowPrivateUrls;
  }

  webhookEndpointsAllowed(tier: Principal['tier']): number {
    return this.config.tierLimits[tier].webhookEndpoints;
  }
}
