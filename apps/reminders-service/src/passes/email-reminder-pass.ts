import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { NOT_ELIGIBLE_REASONS, type NotEligibleView, type ParticipantMessageContext, type ReminderTrigger, utcDay } from '#libs/contracts';
import { deriveKey } from '#libs/crypto';
import { APP_CONFIG, Outbox, type Tx } from '#libs/runtime';
import { MessageContexts } from '../contacts/message-contexts.js';
import { DAILY_EMAIL } from '../daily-counts.js';
import { type EmailCandidate, EmailRemindersRepository } from '../email/email-reminders.repository.js';
import { Emails } from '../email/emails.js';
import { OrganizationProfiles } from '../email/organization-profiles.js';
import { participantEmail } from '../email/participant-email.js';
import type { RemindersConfig } from '../reminders.config.js';
import { type ChannelOutcome, DailyAllowance, type PassChannelRunner, type PassTarget } from './channel-outcome.js';

/** Addresses a transaction of the pass records at most: a short hold on the organization's count of the day. */
const CHUNK = 200;

/** How many addresses the pass left out, by reason (in NOT_ELIGIBLE_REASONS' order, only those that occurred). */
function suppressedByReason(candidates: EmailCandidate[]): NotEligibleView[] {
  const counts = new Map<string, number>();
  for (const { suppression } of candidates) if (suppression) counts.set(suppression, (counts.get(suppression) ?? 0) + 1);
  return NOT_ELIGIBLE_REASONS.flatMap((reason) => (counts.has(reason) ? [{ reason, count: counts.get(reason)! }] : []));
}

/**
 * The email channel of a reminder pass over a signup (docs/decisions.md, "Email reminders"): every
 * address of its confirmed participants not reminded of it yet, one reminder per address, except
 * those that bounced or unsubscribed from the organization's reminders. CHUNK addresses at a time:
 * the messages are made from each participant as it is now (read before the transaction: requests
 * to other apps never run while this app holds a connection); then, in one short transaction under
 * the lock of the organization's email count of the day (live only), each address is claimed (as
 * its HMAC) and its reminder recorded in the outbox, up to what remains of the day's ceiling. The
 * outbox sends them (sandbox: stores them), and each emits reminder.sent (channel email) in the
 * same transaction. A claim is never given back: an email, once recorded, goes out.
 */
@Injectable()
export class EmailReminderPass implements PassChannelRunner {
  readonly allowance: DailyAllowance;
  private readonly addressKeys: Buffer;

  constructor(
    private readonly outbox: Outbox,
    private readonly reminders: EmailRemindersRepository,
    private readonly contexts: MessageContexts,
    private readonly organizations: OrganizationProfiles,
    private readonly emails: Emails,
    @Inject(APP_CONFIG) config: RemindersConfig,
  ) {
    this.allowance = new DailyAllowance(config.tierLimits, 'emailsPerDay', 'Email reminders');
    this.addressKeys = deriveKey(config.emailSecretKey, 'reminded addresses v1');
  }

  async run(target: PassTarget, trigger: ReminderTrigger): Promise<ChannelOutcome> {
    this.allowance.assertOffered(target.tier);
    const reminded = await this.reminders.remindedKeys(target.signupId);
    const open = (await this.reminders.candidates(target.signupId, target.organizationId)).filter(
      (candidate) => !reminded.has(this.keyOf(candidate.address)),
    );
    const reachable = open.filter((candidate) => candidate.suppression === null);
    const outcome: ChannelOutcome = {
      eligible: reachable.length,
      sent: 0,
      failed: 0,
      notEligible: suppressedByReason(open),
      complete: true,
    };
    if (reachable.length === 0) return outcome;
    const { name: organizationName } = await this.organizations.of(target.organizationId);
    const ceiling = this.allowance.ceiling(target.tier);
    for (let start = 0; start < reachable.length; start += CHUNK) {
      const chunk = reachable.slice(start, start + CHUNK);
      const contexts = await this.contexts.of(chunk.map((candidate) => candidate.participantId));
      const done = await this.outbox.transaction(async (tx) => {
        const day = utcDay().day;
        const room = target.livemode ? ceiling - (await DAILY_EMAIL.lock(tx.manager, target.organizationId, day)) : Infinity;
        if (room <= 0) return undefined;
        const recorded = await this.record(tx, target, trigger, organizationName, chunk, contexts, room);
        if (target.livemode) await DAILY_EMAIL.add(tx.manager, target.organizationId, day, recorded.sent);
        return recorded;
      });
      this.emails.queued();
      if (!done) {
        outcome.complete = false;
        if (outcome.sent === 0) outcome.full = { ceiling, what: 'reminder emails' };
        break;
      }
      outcome.sent += done.sent;
      if (done.stopped) {
        outcome.complete = false;
        break;
      }
    }
    return outcome;
  }

  /**
   * Claims and records the reminders of one chunk, up to `room`, each with its reminder.sent;
   * `stopped` when the room ran out before the chunk did.
   */
  private async record(
    { manager, emit }: Tx,
    target: PassTarget,
    trigger: ReminderTrigger,
    organizationName: string,
    chunk: EmailCandidate[],
    contexts: Map<string, ParticipantMessageContext>,
    room: number,
  ): Promise<{ sent: number; stopped: boolean }> {
    let sent = 0;
    for (const candidate of chunk) {
      const context = contexts.get(candidate.participantId);
      // Cancelled, moved to a line, gone, or at another address since the projection saw it: not reminded by this pass.
      if (!context || context.participant.status !== 'confirmed' || context.participant.email.toLowerCase() !== candidate.address) continue;
      if (sent >= room) return { sent, stopped: true };
      const key = this.keyOf(candidate.address);
      if (!(await this.reminders.claim(manager, target.signupId, key, candidate.participantId))) continue;
      const recorded = await this.emails.record(manager, {
        dedupKey: `reminder:${target.signupId}:${key}`,
        kind: 'reminder',
        organizationId: target.organizationId,
        senderName: organizationName,
        livemode: target.livemode,
        signupId: target.signupId,
        participantId: candidate.participantId,
        to: context.participant.email,
        content: participantEmail(context, organizationName, 'reminder', this.emails.fromAddress),
      });
      if (recorded?.status !== 'queued' && recorded?.status !== 'stored') continue;
      sent += 1;
      await emit(
        'reminder.sent',
        {
          id: recorded.id,
          signupId: target.signupId,
          participantId: candidate.participantId,
          trigger,
          sentAt: new Date().toISOString(),
          organizationId: target.organizationId,
          livemode: target.livemode,
          channel: 'email',
        },
        { orgid: target.organizationId, livemode: target.livemode, subject: target.signupId },
      );
    }
    return { sent, stopped: false };
  }

  /** What a reminded address is kept as: its HMAC under a key of its own, never the address. */
  private keyOf(address: string): string {
    return createHmac('sha256', this.addressKeys).update(address).digest('base64url');
  }
}
