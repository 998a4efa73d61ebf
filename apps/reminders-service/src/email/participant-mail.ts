import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CloudEvent, type DurableEventType, DURABLES, type ParticipantMessageContext, utcDay } from '#libs/contracts';
import { APP_CONFIG, APP_CONTEXT, type AppContext, EventConsumer } from '#libs/runtime';
import { MessageContexts } from '../contacts/message-contexts.js';
import { composeParticipantMessage, displayName, isNews, messageFingerprint, messageKindFor } from '../messages/index.js';
import type { RemindersConfig } from '../reminders.config.js';
import { Emails } from './emails.js';
import { inviteOf } from './invite.js';
import { MailStateRepository } from './mail-state.repository.js';
import { type OrganizationProfile, OrganizationProfiles } from './organization-profiles.js';

type MailEvent = CloudEvent<DurableEventType<'reminders-mail'>>;

/** What a message is made from: the participant as it is now, and its organization. */
interface Prepared {
  context: ParticipantMessageContext;
  organization: OrganizationProfile;
}

/**
 * Mails participants about their registrations (docs/decisions.md, "Participant email"): a durable
 * consumer of participant events, shared by the replicas, each event applied once in the
 * transaction of its batch. For each event it reads the participant as it is now
 * (signups.participants.messages) before the transaction, then locks the participant's mail
 * state, picks the kind the event calls for,
 * and records the message in the outbox only when it tells something new (its fingerprint differs
 * from the last one sent). Live mail counts against the organization's ceiling of the day
 * (emailsPerDay by tier): past it, the message is recorded suppressed and not sent. The outbox's dedup key (the event and the kind) makes a redelivered
 * event record nothing.
 */
@Injectable()
export class ParticipantMail extends EventConsumer<DurableEventType<'reminders-mail'>, Prepared | undefined> {
  constructor(
    private readonly contexts: MessageContexts,
    private readonly emails: Emails,
    private readonly state: MailStateRepository,
    private readonly organizations: OrganizationProfiles,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
    @Inject(APP_CONTEXT) context: AppContext,
  ) {
    super(context, {
      consumer: DURABLES['reminders-mail'].durable,
      types: DURABLES['reminders-mail'].types,
      afterCommit: () => emails.queued(),
    });
  }

  /**
   * Reads the participant as it is now and its organization, before the transaction: requests to
   * other apps never run while this app holds a connection.
   */
  protected override async prepare(event: MailEvent): Promise<Prepared | undefined> {
    const context = (await this.contexts.of([event.data.id])).get(event.data.id);
    // A participant whose signup was deleted since is mailed nothing.
    if (!context) return undefined;
    return { context, organization: await this.organizations.of(context.signup.organizationId) };
  }

  protected async apply(manager: EntityManager, event: MailEvent, prepared: Prepared | undefined): Promise<void> {
    const participantId = event.data.id;
    const lastSent = await this.state.lock(manager, participantId);
    if (!prepared) return;
    const { context, organization } = prepared;
    const kind = messageKindFor(event.type, context.participant);
    if (!kind) return;
    const fingerprint = messageFingerprint(context);
    if (!isNews(kind, fingerprint, lastSent)) return;
    const { name: organizationName, tier } = organization;
    const message = composeParticipantMessage(context, organizationName, kind);
    // Live mail counts against the organization's ceiling of the day; past it, the message is kept, suppressed.
    const withinCeiling =
      !context.signup.livemode ||
      (await this.state.countEmail(manager, context.signup.organizationId, utcDay().day, this.config.tierLimits[tier].emailsPerDay));
    await this.emails.record(manager, {
      dedupKey: `${event.id}:${kind}`,
      kind,
      organizationId: context.signup.organizationId,
      senderName: organizationName,
      livemode: context.signup.livemode,
      signupId: context.signup.id,
      participantId,
      to: context.participant.email,
      suppress: !withinCeiling,
      content: {
        subject: message.subject,
        text: message.text,
        html: message.html,
        calendar: message.calendar
          ? inviteOf(message.calendar, context, { name: displayName(organizationName), email: this.emails.fromAddress })
          : null,
      },
    });
    await this.state.remember(manager, participantId, fingerprint);
  }
}
