import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from '#libs/observability';
import { APP_CONFIG, LOGGER } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import { EMAIL_TRANSPORT, EmailFailure, type EmailTransport } from './email-transport.js';
import { Emails } from './emails.js';
import { type EmailRow, EmailsRepository, EVERY_ORGANIZATION } from './emails.repository.js';

/** Emails one replica has with the SMTP server at once. */
const CONCURRENCY = 4;
/** How long past the SMTP timeout a claim is held before another replica may take it over. */
const LEASE_MARGIN_SECONDS = 30;
/** After repeated failures to reach the database, wait at most this long between tries. */
const MAX_BACKOFF_MS = 30_000;
/** Each retry delay is moved by up to this fraction either way, so the retries of a burst spread out. */
const JITTER = 0.1;

/**
 * Sends the queued emails: claims those due (no two replicas hold one), opens each, checks the
 * address was not suppressed since, hands it to the SMTP server and records the outcome. A 4xx
 * or no answer is tried again after the next delay of EMAIL_RETRY_SCHEDULE (failed past the
 * last); a 5xx fails it, and a 5xx to the recipient also suppresses the address. A replica that
 * dies while sending leaves its claim to be taken over once the lease ends: the message may then
 * go out twice, with the same Message-ID (SMTP gives no exactly-once; receivers dedupe by it).
 */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly emails: Emails,
    private readonly repository: EmailsRepository,
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Starts sending when there is an SMTP server (without one, nothing is ever queued). */
  start(): void {
    if (!this.emails.sending) return;
    this.stopped = false;
    this.emails.onQueued = () => this.kick();
    this.running ??= this.loop();
  }

  /** Ends the loop once the emails in flight are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await this.running;
    this.running = undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
    this.transport.close();
  }

  kick(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const leaseSeconds = Math.ceil(this.config.smtpTimeoutMs / 1000) * 3 + LEASE_MARGIN_SECONDS;
    let failures = 0;
    while (!this.stopped) {
      const free = CONCURRENCY - this.inFlight.size;
      if (free > 0) {
        try {
          const claims = await this.repository.claimDue(free, leaseSeconds);
          failures = 0;
          for (const claim of claims) this.track(claim);
          if (claims.length === free) continue;
        } catch (err) {
          failures += 1;
          if (failures === 1) this.logger.error({ err }, 'cannot claim emails; backing off');
          await this.idle(Math.min(MAX_BACKOFF_MS, this.config.emailPollMs * 2 ** failures));
          continue;
        }
      }
      await this.idle(this.config.emailPollMs);
    }
    await Promise.allSettled([...this.inFlight]);
  }

  private track(claim: EmailRow): void {
    const sending: Promise<void> = this.send(claim)
      .catch((err: unknown) => this.logger.error({ err, emailId: claim.id }, 'email outcome not recorded; retried when its lease ends'))
      .finally(() => {
        this.inFlight.delete(sending);
        this.kick();
      });
    this.inFlight.add(sending);
  }

  /** Waits until kicked or `ms` passed. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async send(claim: EmailRow): Promise<void> {
    if (await this.repository.isSuppressed(claim.to, claim.organizationId, claim.kind)) {
      if (await this.repository.finish(claim.id, claim.attempts, { status: 'suppressed' })) this.emails.count(claim.kind, 'suppressed');
      return;
    }
    const email = this.emails.open(claim);
    try {
      await this.transport.send({
        messageId: this.emails.messageIdOf(email.id),
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        calendar: email.calendar,
        unsubscribeUrl: email.unsubscribeUrl,
      });
    } catch (err) {
      await this.failed(claim, err instanceof EmailFailure ? err : new EmailFailure('temporary', String(err)));
      return;
    }
    if (await this.repository.finish(claim.id, claim.attempts, { status: 'sent' })) this.emails.count(claim.kind, 'sent');
  }

  private async failed(claim: EmailRow, failure: EmailFailure): Promise<void> {
    const delay = this.config.emailRetrySchedule[claim.attempts - 1];
    const context = { emailId: claim.id, kind: claim.kind, attempt: claim.attempts, failure: failure.kind, err: failure.message };
    if (failure.kind === 'temporary' && delay !== undefined) {
      this.logger.warn(context, 'email not sent; tried again later');
      const retryAt = new Date(Date.now() + Math.round(delay * (1 + JITTER * (2 * Math.random() - 1))));
      await this.repository.finish(claim.id, claim.attempts, { status: 'queued', retryAt, error: failure.message });
      return;
    }
    this.logger.warn(context, 'email failed');
    if (failure.kind === 'bounced') await this.repository.suppress(claim.to, EVERY_ORGANIZATION, 'bounced');
    if (await this.repository.finish(claim.id, claim.attempts, { status: 'failed', error: failure.message }))
      this.emails.count(claim.kind, 'failed');
  }
}
