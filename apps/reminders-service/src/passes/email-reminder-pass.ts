import { Inject, Injectable } from '@nestjs/common';
import { NOT_ELIGIBLE_REASONS, type NotEligibleView, type ReminderTrigger, utcDay } from '#libs/contracts';
import { APP_CONFIG, Outbox } from '#libs/runtime';
import { MessageContexts } from '../contacts/message-contexts.js';
import { DAILY_EMAIL } from '../daily-counts.js';
import { type EmailCandidate, EmailRemindersRepository } from '../email/email-reminders.repository.js';
import { Emails } from '../email/emails.js';
import { OrganizationProfiles } from '../email/organization-profiles.js';
import { participantEmail } from '../email/participant-email.js';
import type { RemindersConfig } from '../reminders.config.js';
import { type ChannelOutcome, DailyAllowance, type PassChannelRunner, type PassTarget } from './channel-outcome.js';

/** How many addresses the pass left out, by reason (in NOT_ELIGIBLE_REASONS' order, only those that occurred). */
function suppressedByReason(candidates: EmailCandidate[]): NotEligibleView[] {
  const counts = new Map<string, number>();
  for (const { suppression } of candidates) if (suppression) counts.set(suppression, (counts.get(suppression) ?? 0) + 1);
  return NOT_ELIGIBLE_REASONS.flatMap((reason) => (counts.has(reason) ? [{ reason, count: counts.get(reason)! }] : []));
}

/**
 * The email channel of a reminder pass over a signup (docs/decisions.md, "Email reminders"): every
 * address of its confirmed participants not reminded of it yet, one reminder per address, except
 * those that bounced or unsubscribed from the organization's reminders. The messages are made from
 * each participant as it is now (read before the transaction: requests to other apps never run
 * while this app holds a connection); then, in one transaction under the lock of the
 * organization's email count of the day (live only), each address is claimed for good and its
 * reminder recorded in the outbox, up to what remains of the day's ceiling. The outbox sends
 * them (sandbox: stores them), and each emits reminder.sent (channel email) in the same
 * transaction. A claim is never given back: an email, once recorded, goes out.
 */
@Injectable()
export class EmailReminderPass implements PassChannelRunner {
  readonly allowance: DailyAllowance;

  constructor(
    private readonly outbox: Outbox,
    private readonly reminders: EmailRemindersRepository,
    private readonly contexts: MessageContexts,
    private readonly organizations: OrganizationProfiles,
    private readonly emails: Emails,
    @Inject(APP_CONFIG) config: RemindersConfig,
  ) {
    this.allowance = new DailyAllowance(config.tierLimits, 'emailsPerDay', 'Email reminders');
  }

  async run(target: PassTarget, trigger: ReminderTrigger): Promise<ChannelOutcome> {
    this.allowance.assertOffered(target.tier);
    const candidates = await this.reminders.candidates(target.signupId, target.organizationId);
    const reachable = candidates.filter((candidate) => candidate.suppression === null);
    const notEligible = suppressedByReason(candidates);
    const contexts = await this.contexts.of(reachable.map((candidate) => candidate.participantId));
    const { name: organizationName } = await this.organizations.of(target.organizationId);
    const ceiling = this.allowance.ceiling(target.tier);
    const day = utcDay().day;
    const outcome = await this.outbox.transaction(async ({ manager, emit }): Promise<ChannelOutcome> => {
      const room = target.livemode ? ceiling - (await DAILY_EMAIL.lock(manager, target.organizationId, day)) : Infinity;
      if (room <= 0) {
        return { eligible: reachable.length, sent: 0, failed: 0, notEligible, complete: false, full: { ceiling, what: 'reminder emails' } };
      }
      let sent = 0;
      let complete = true;
      for (const candidate of reachable) {
        const context = contexts.get(candidate.participantId);
        // Cancelled, moved to a line, or gone since the projection saw it: not reminded.
        if (!context || context.participant.status !== 'confirmed') continue;
        if (sent >= room) {
          complete = false;
          break;
        }
        if (!(await this.reminders.claim(manager, target.signupId, candidate.address, candidate.participantId))) continue;
        const recorded = await this.emails.record(manager, {
          dedupKey: `reminder:${target.signupId}:${candidate.address}`,
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
      if (target.livemode) await DAILY_EMAIL.add(manager, target.organizationId, day, sent);
      return { eligible: reachable.length, sent, failed: 0, notEligible, complete };
    });
    this.emails.queued();
    return outcome;
  }
}
