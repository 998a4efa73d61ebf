import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type AppContext, APP_CONTEXT } from '#libs/runtime';
import { EndpointRules } from '../endpoints/endpoint-rules.js';
import { webhookHeaders } from '../signing/index.js';
import { postWebhook, type SendResult } from '../targets/index.js';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '../webhooks.config.js';
import { DeliveriesRepository, type ClaimedAttempt } from './deliveries.repository.js';
import { errorMessageOf, outcomeOf } from './retry-policy.js';

/** Attempts one worker sends at once. */
const BATCH = 16;
/** How long past the send timeout a claim is held before another worker may take it over. */
const LEASE_MARGIN_SECONDS = 30;

/**
 * Sends due attempts: claims a batch (no two workers, of this replica or another, hold one
 * attempt), signs each with the endpoint's current secrets, posts it, and records the outcome.
 * Polls every WEBHOOK_POLL_MS when idle, and at once when kicked (a fan-out made work).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationShutdown {
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly rules: EndpointRules,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
  ) {}

  start(): void {
    this.stopped = false;
    this.running ??= this.loop();
  }

  /** Ends the loop after the attempts in flight are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await this.running;
    this.running = undefined;
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  kick(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const leaseSeconds = Math.ceil(this.config.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
    while (!this.stopped) {
      let claimed: ClaimedAttempt[] = [];
      try {
        claimed = await this.deliveries.claimDue(BATCH, leaseSeconds);
        await Promise.all(claimed.map((attempt) => this.send(attempt)));
      } catch (err) {
        this.context.logger.error({ err }, 'webhook delivery round failed');
      }
      if (claimed.length < BATCH && !this.stopped) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), this.config.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async send(claim: ClaimedAttempt): Promise<void> {
    const result = await this.attempt(claim);
    const outcome = outcomeOf(result, claim.attempt, this.config.retrySchedule, new Date());
    await this.deliveries.record(
      claim,
      {
        status: result.status,
        errorMessage: errorMessageOf(result),
        next: outcome.kind === 'retry' ? { status: 'pending', at: outcome.retryAt } : { status: outcome.kind },
        gone: outcome.kind === 'failed' && outcome.gone,
      },
      this.config.pauseAfter,
    );
  }

  /** Signs and posts one attempt; a failure to prepare it is a failed attempt like any other. */
  private async attempt(claim: ClaimedAttempt): Promise<SendResult> {
    try {
      const now = new Date();
      const headers = webhookHeaders(this.rules.signingSecrets(claim, now), claim.eventId, Math.floor(now.getTime() / 1000), claim.payload);
      return await postWebhook(new URL(claim.url), { ...headers }, claim.payload, {
        timeoutMs: this.config.timeoutMs,
        allowPrivate: this.config.allowPrivateUrls,
      });
    } catch (err) {
      this.context.logger.error({ err, deliveryId: claim.id }, 'webhook attempt could not be prepared');
      return { status: null, body: null, latencyMs: 0, error: 'the delivery could not be prepared', retryAfterSeconds: null };
    }
  }
}
