import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { newId, NOT_ELIGIBLE_REASONS, type NotEligibleReason, type NotEligibleView, type ReminderTrigger, utcDay } from '#libs/contracts';
import type { Counter, Logger, Metrics } from '#libs/observability';
import { APP_CONFIG, DATA_SOURCE, LOGGER, METRICS, Outbox } from '#libs/runtime';
import { DAILY_SMS } from '../daily-counts.js';
import { OptOutsRepository } from '../inbound/opt-outs.repository.js';
import type { RemindersConfig } from '../reminders.config.js';
import { SmsNumberPolicy } from '../sms/sms-number-policy.js';
import { SMS_PROVIDER, SmsFailure, type SmsFailureKind, type SmsProvider } from '../sms/sms-provider.js';
import { type ChannelOutcome, DailyAllowance, type PassChannelRunner, type PassTarget } from './channel-outcome.js';
import { type Candidate, type ClaimedMessage, PassesRepository } from './passes.repository.js';
import { reminderText } from './reminder-text.js';

/** Texts in flight at once in one pass. */
const CONCURRENCY = 8;
/** A pass starts no text after this long (the gateway waits 300 s); the rest stay eligible. */
const PASS_DEADLINE_MS = 240_000;
/** Provider failures in a row (timeouts, 5xx, unreachable) that end a pass: the provider is down. */
const FAILURES_TO_STOP = 3;

/** Sandbox texts are stored (the messages row is the outbox), never sent. */
const SANDBOX: SmsProvider = { send: () => Promise.resolve({ id: '' }) };

/** What became of a text handed to the provider: sent, one of the failures, or stored by a sandbox pass. */
type SmsOutcome = 'sent' | 'sandbox' | SmsFailureKind;

function isUpstream(kind: SmsFailureKind): boolean {
  return kind === 'timeout' || kind === 'unavailable';
}

interface Sending {
  sent: number;
  failures: SmsFailureKind[];
  /** Claims never attempted: the pass stopped, or the number opted out meanwhile. */
  unattempted: string[];
}

/** The candidates a pass may text, and how many of the others' numbers the SMS number policy refused, by reason. */
function screenNumbers(candidates: Candidate[], numbers: SmsNumberPolicy): { textable: Candidate[]; notEligible: NotEligibleView[] } {
  const refused = new Map<NotEligibleReason, number>();
  const textable = candidates.filter((candidate) => {
    const reason = numbers.refusal(candidate.phone);
    if (reason) refused.set(reason, (refused.get(reason) ?? 0) + 1);
    return reason === undefined;
  });
  return {
    textable,
    notEligible: NOT_ELIGIBLE_REASONS.flatMap((reason) => (refused.has(reason) ? [{ reason, count: refused.get(reason)! }] : [])),
  };
}

/**
 * The SMS channel of a reminder pass over a signup (API decisions, "Reminders"):
 * 1. in one transaction, under a lock on the organization's count of the day (live only),
 *    count the eligible participants (those whose number the SMS number policy accepts; the
 *    others are counted by reason) and claim up to the ceiling's remainder of them (none when
 *    nothing remains: the outcome says the ceiling is full);
 * 2. text the claims, a few at once: each claim goes to 'sending' just before the provider is
 *    called (unless the number opted out meanwhile); each text sent is marked and emits
 *    reminder.sent in one transaction; failed ones are given back (still eligible). After
 *    FAILURES_TO_STOP provider failures in a row, or past the deadline, the rest are given back
 *    unattempted;
 * 3. give the day's count back what was not sent.
 * A person is claimed by one pass only, so two passes at once, or a manual and an automatic one,
 * never text them twice. The claims of a pass that died free up after CLAIM_LEASE_SECONDS.
 */
@Injectable()
export class ReminderPass implements PassChannelRunner {
  private readonly smsMessages: Counter<'outcome'>;
  private readonly numbers: SmsNumberPolicy;
  readonly allowance: DailyAllowance;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly passes: PassesRepository,
    private readonly optOuts: OptOutsRepository,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) metrics: Metrics,
  ) {
    this.smsMessages = metrics.counter('sms_messages_total', 'Texts handed to the SMS provider, by outcome', ['outcome']);
    this.numbers = new SmsNumberPolicy(config.smsAllowedCountries);
    this.allowance = new DailyAllowance(config.tierLimits, 'smsPerDay', 'SMS reminders');
  }

  async run(target: PassTarget, trigger: ReminderTrigger): Promise<ChannelOutcome> {
    this.allowance.assertOffered(target.tier);
    const day = utcDay();
    const { eligible, notEligible, claimed, full } = await this.claim(target, trigger, day);
    if (full) return { eligible, sent: 0, failed: 0, notEligible, complete: false, full };
    if (notEligible.length > 0)
      this.logger.info({ signupId: target.signupId, trigger, notEligible }, 'phone numbers not texted (SMS number policy)');
    const outcome = await this.send(claimed, target, trigger);
    if (target.livemode) await DAILY_SMS.add(this.dataSource.manager, target.organizationId, day.day, outcome.sent - claimed.length);
    await this.passes.release(outcome.unattempted);
    const failed = outcome.failures.length;
    const complete = claimed.length === eligible && outcome.unattempted.length === 0 && !outcome.failures.some(isUpstream);
    const result: ChannelOutcome = { eligible, sent: outcome.sent, failed, notEligible, complete };
    if (outcome.sent === 0 && failed > 0 && outcome.failures.every(isUpstream)) {
      result.upstream = outcome.failures.every((kind) => kind === 'timeout')
        ? { status: 504, detail: `The SMS provider did not answer within ${this.config.smsTimeoutMs} ms; nobody was texted.` }
        : { status: 502, detail: 'The SMS provider is unavailable; nobody was texted.' };
    }
    return result;
  }

  private claim(target: PassTarget, trigger: ReminderTrigger, day: { day: string }) {
    return this.dataSource.transaction(async (manager) => {
      const ceiling = this.allowance.ceiling(target.tier);
      const room = target.livemode ? ceiling - (await DAILY_SMS.lock(manager, target.organizationId, day.day)) : Infinity;
      const { textable, notEligible } = screenNumbers(await this.passes.candidates(manager, target.signupId), this.numbers);
      if (room <= 0) return { eligible: textable.length, notEligible, claimed: [], full: { ceiling, what: 'SMS reminders' } };
      const claimed = await this.passes.claim(
        manager,
        textable.slice(0, room).map((c) => ({
          id: newId(),
          signupId: target.signupId,
          participantId: c.participantId,
          organizationId: target.organizationId,
          livemode: target.livemode,
          phone: c.phone,
          body: reminderText(c.name, target),
          trigger,
        })),
      );
      if (target.livemode) await DAILY_SMS.add(manager, target.organizationId, day.day, claimed.length);
      return { eligible: textable.length, notEligible, claimed, full: undefined };
    });
  }

  private async send(claimed: ClaimedMessage[], target: PassTarget, trigger: ReminderTrigger): Promise<Sending> {
    const provider = target.livemode ? this.provider : SANDBOX;
    const outcome: Sending = { sent: 0, failures: [], unattempted: [] };
    const deadline = Date.now() + PASS_DEADLINE_MS;
    let next = 0;
    let failuresInARow = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const message = claimed[next++]!;
        if (failuresInARow >= FAILURES_TO_STOP || Date.now() > deadline || !(await this.startSending(message))) {
          outcome.unattempted.push(message.id);
          continue;
        }
        try {
          const { id } = await provider.send({ to: message.phone, body: message.body });
          failuresInARow = 0;
          outcome.sent += 1;
          this.count(target.livemode ? 'sent' : 'sandbox');
          await this.recordSent(message, id, target, trigger);
        } catch (err) {
          const failure = err instanceof SmsFailure ? err : new SmsFailure('unavailable', String(err));
          failuresInARow = isUpstream(failure.kind) ? failuresInARow + 1 : 0;
          outcome.failures.push(failure.kind);
          this.count(failure.kind);
          this.logger.warn(
            { signupId: target.signupId, participantId: message.participantId, kind: failure.kind, err: failure.message },
            'reminder not sent',
          );
          await this.afterFailure(message, failure.kind);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
    return outcome;
  }

  private count(outcome: SmsOutcome): void {
    this.smsMessages.inc({ outcome });
  }

  /** Whether the claim may go to the provider now (false: the number opted out since, or the database failed). */
  private async startSending(message: ClaimedMessage): Promise<boolean> {
    try {
      return await this.passes.markSending(message.id);
    } catch (err) {
      this.logger.error({ err, participantId: message.participantId }, 'reminder claim not taken to sending');
      return false;
    }
  }

  /**
   * Gives a failed claim back (and records a provider's opt-out). Logged when the database
   * fails here: the claim then stays taken, and the pass goes on with the others.
   */
  private async afterFailure(message: ClaimedMessage, kind: SmsFailureKind): Promise<void> {
    try {
      await this.passes.release([message.id]);
      if (kind === 'opted_out') await this.optOuts.optOut(message.phone);
    } catch (err) {
      this.logger.error({ err, participantId: message.participantId }, 'failed reminder not given back');
    }
  }

  /**
   * Marks a text sent and emits reminder.sent. The text went out whatever happens here: when
   * this fails, the claim stays taken (never texted again) and the failure is logged.
   */
  private async recordSent(
    message: ClaimedMessage,
    providerMessageId: string,
    target: PassTarget,
    trigger: ReminderTrigger,
  ): Promise<void> {
    try {
      await this.outbox.transaction(async (tx) => {
        const sentAt = await this.passes.markSent(tx.manager, message.id, providerMessageId || null);
        await tx.emit(
          'reminder.sent',
          {
            id: message.id,
            signupId: target.signupId,
            participantId: message.participantId,
            trigger,
            sentAt: sentAt.toISOString(),
            organizationId: target.organizationId,
            livemode: target.livemode,
            channel: 'sms',
          },
          { orgid: target.organizationId, livemode: target.livemode, subject: target.signupId },
        );
      });
    } catch (err) {
      this.logger.error({ err, signupId: target.signupId, participantId: message.participantId }, 'reminder sent but not recorded');
    }
  }
}
