import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Counter, Metrics } from '#libs/observability';
import { APP_CONFIG, APP_CONTEXT, type AppContext, METRICS } from '#libs/runtime';
import { EndpointRules } from '../endpoints/endpoint-rules.js';
import { webhookHeaders } from '../signing/index.js';
import { closeWebhookConnections, errorMessageOf, isSuccess, postWebhook, type SendResult } from '../targets/index.js';
import type { WebhooksConfig } from '../webhooks.config.js';
import { type ClaimedAttempt, DeliveriesRepository } from './deliveries.repository.js';
import { type AttemptOutcome, outcomeOf } from './retry-policy.js';

/** Attempts one worker has in flight at most. */
const CONCURRENCY = 16;
/** How long past the send timeout a claim is held before another worker may take it over. */
const LEASE_MARGIN_SECONDS = 30;
/** After repeated failures to reach the database, wait at most this long between tries. */
const MAX_BACKOFF_MS = 30_000;

/**
 * The `outcome` label of webhook_delivery_attempts_total, a fixed set: `delivered` (a 2xx);
 * `http_4xx`, `http_5xx` or `http_other` (any other status: redirects are not followed) by the
 * status answered; `no_response` when none came (a refused address, a timeout, a network error,
 * or an attempt that could not be prepared: its error message says which); `abandoned` when an
 * attempt was given up unsent because every scheduled one was interrupted.
 */
type AttemptLabel = 'delivered' | 'http_4xx' | 'http_5xx' | 'http_other' | 'no_response' | 'abandoned';

function labelOf(result: SendResult): AttemptLabel {
  if (result.status === null) return 'no_response';
  if (isSuccess(result)) return 'delivered';
  if (result.status >= 500) return 'http_5xx';
  if (result.status >= 400) return 'http_4xx';
  return 'http_other';
}

/**
 * Sends due attempts: claims as many as it has free slots (no two workers, of this replica or
 * another, hold one attempt), signs each with the endpoint's current secrets, posts it and
 * records the outcome. Claims again once half its slots are free after attempts or a fan-out
 * made work, and on every poll (WEBHOOK_POLL_MS) whatever is free, backing off while the
 * database is unreachable.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationShutdown {
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly attempts: Counter<'outcome'>;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly rules: EndpointRules,
    @Inject(APP_CONFIG) private readonly config: WebhooksConfig,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
    @Inject(METRICS) metrics: Metrics,
  ) {
    this.attempts = metrics.counter('webhook_delivery_attempts_total', 'Webhook delivery attempts, by outcome', ['outcome']);
  }

  start(): void {
    this.stopped = false;
    this.running ??= this.loop();
  }

  /** Ends the loop once the attempts in flight are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await this.running;
    this.running = undefined;
  }

  /** Stops, then closes the connections kept to receivers (test sends are over by now: the app serves no more requests). */
  async onApplicationShutdown(): Promise<void> {
    await this.stop();
    closeWebhookConnections();
  }

  kick(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const leaseSeconds = Math.ceil(this.config.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
    let failures = 0;
    let polled = true;
    while (!this.stopped) {
      const free = CONCURRENCY - this.inFlight.size;
      // Woken by an attempt done or a fan-out, it claims once half the slots are free, so one
      // claim serves several attempts; a poll claims whatever is free.
      if (free > 0 && (polled || free >= CONCURRENCY / 2)) {
        try {
          const claims = await this.deliveries.claimDue(free, leaseSeconds);
          failures = 0;
          for (const claim of claims) this.track(claim);
          if (claims.length === free) {
            polled = false;
            continue;
          }
        } catch (err) {
          failures += 1;
          if (failures === 1) this.context.logger.error({ err }, 'cannot claim webhook deliveries; backing off');
          await this.idle(Math.min(MAX_BACKOFF_MS, this.config.pollMs * 2 ** failures));
          continue;
        }
      }
      polled = await this.idle(this.config.pollMs);
    }
    await Promise.allSettled([...this.inFlight]);
  }

  private track(claim: ClaimedAttempt): void {
    const sending: Promise<void> = this.send(claim)
      .catch((err: unknown) => this.context.logger.error({ err, deliveryId: claim.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        this.inFlight.delete(sending);
        this.kick();
      });
    this.inFlight.add(sending);
  }

  /** Waits until kicked (false) or `ms` passed (true). */
  private idle(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = (timedOut: boolean) => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(timedOut);
      };
      const timer = setTimeout(() => wake(true), ms);
      this.wake = () => wake(false);
    });
  }

  private async send(claim: ClaimedAttempt): Promise<void> {
    const schedule = this.config.retrySchedule;
    // Attempts beyond the schedule come only from workers that died while sending: give up.
    const overdue = claim.attempt > schedule.length + 1;
    const result = overdue ? failure('abandoned: every scheduled attempt was interrupted') : await this.attempt(claim);
    const outcome: AttemptOutcome = overdue ? { kind: 'failed', gone: false } : outcomeOf(result, claim.attempt, schedule, new Date());
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
    this.attempts.inc({ outcome: overdue ? 'abandoned' : labelOf(result) });
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
      return failure('the delivery could not be prepared');
    }
  }
}

function failure(error: string): SendResult {
  return { status: null, body: null, latencyMs: 0, error, retryAfterSeconds: null };
}
