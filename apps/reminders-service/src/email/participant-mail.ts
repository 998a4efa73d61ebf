import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CloudEvent, type DurableEventType, DURABLES, type ParticipantMessageContext, utcDay } from '#libs/contracts';
import { APP_CONFIG, APP_CONTEXT, type AppContext, EventConsumer } from '#libs/runtime';
import { MessageContexts } from '../contacts/message-contexts.js';
import {
  contextAsOf,
  isNews,
  messageFingerprint,
  type MessageKind,
  messageKindFor,
  type SignupChangeEventType,
} from '../messages/index.js';
import type { RemindersConfig } from '../reminders.config.js';
import { Emails } from './emails.js';
import { MailStateRepository, type Told } from './mail-state.repository.js';
import { type OrganizationProfile, OrganizationProfiles } from './organization-profiles.js';
import { participantEmail } from './participant-email.js';

type MailEvent = CloudEvent<DurableEventType<'reminders-mail'>>;
type SignupChangeEvent = CloudEvent<SignupChangeEventType>;

/** What the messages of one event are made from: the participants it may mail as they are now (by id), and their organization. */
interface Prepared {
  contexts: ParticipantMessageContext[];
  organization: OrganizationProfile;
}

/** One message to consider: whom, about which event, what it was last told, and the outbox key of its message of each kind. */
interface Candidate {
  event: MailEvent;
  context: ParticipantMessageContext;
  organization: OrganizationProfile;
  lastSent: Told | undefined;
  dedupKey: (kind: MessageKind) => string;
}

const isSignupChange = (event: MailEvent): event is SignupChangeEvent => event.type === 'signup.updated' || event.type === 'slot.updated';

const signupIdOf = (event: SignupChangeEvent): string => (event.type === 'signup.updated' ? event.data.id : event.data.signupId);

const byParticipantId = (a: ParticipantMessageContext, b: ParticipantMessageContext): number =>
  a.participant.id < b.participant.id ? -1 : a.participant.id > b.participant.id ? 1 : 0;

/**
 * Mails participants about their registrations (docs/decisions.md, "Participant email"): a durable
 * consumer of participant events and of the edits of a signup or a slot, shared by the replicas,
 * each event applied once in the transaction of its batch. For each event it reads the
 * participants as they are now (signups.participants.messages) before the transaction: the
 * event's participant, or, for an edit, every participant of the signup it has mailed before.
 * Then it locks their mail states, picks the kind the event calls for, and records a message in
 * the outbox only when it tells something new (its fingerprint differs from the last one sent).
 * Live mail counts against the organization's ceiling of the day (emailsPerDay by tier): past
 * it, the message is recorded suppressed and not sent. The outbox's dedup key (the event, the
 * participant of an edit, and the kind) makes a redelivered event record nothing.
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
   * Reads the participants as they are now and their organization, before the transaction:
   * requests to other apps never run while this app holds a connection. An edit of a signup or
   * a slot concerns the participants of the signup that were told something (MailStateRepository.mailedOf),
   * read MAX_MESSAGE_CONTEXTS at a time.
   */
  protected override async prepare(event: MailEvent): Promise<Prepared | undefined> {
    const participantIds = isSignupChange(event) ? await this.state.mailedOf(signupIdOf(event)) : [event.data.id];
    if (participantIds.length === 0) return undefined;
    // A participant whose signup was deleted since is mailed nothing: its context is gone.
    const contexts = [...(await this.contexts.of(participantIds)).values()].sort(byParticipantId);
    const [first] = contexts;
    if (!first) return undefined;
    return { contexts, organization: await this.organizations.of(first.signup.organizationId) };
  }

  protected async apply(manager: EntityManager, event: MailEvent, prepared: Prepared | undefined): Promise<void> {
    if (!isSignupChange(event)) {
      const lastSent = await this.state.lock(manager, event.data.id, event.data.signupId);
      const context = prepared?.contexts[0];
      if (!prepared || !context) return;
      await this.mail(manager, {
        event,
        context,
        organization: prepared.organization,
        lastSent,
        dedupKey: (kind) => `${event.id}:${kind}`,
      });
      return;
    }
    if (!prepared) return;
    // The rows in the order of their ids, as every edit locks them: two edits never lock them in opposite orders.
    const lastSent = await this.state.lockMailed(
      manager,
      prepared.contexts.map((context) => context.participant.id),
    );
    for (const context of prepared.contexts) {
      const participantId = context.participant.id;
      const told = lastSent.get(participantId);
      // Told nothing yet: its first message, still to come, is made from the signup as it is then.
      if (told === undefined) continue;
      await this.mail(manager, {
        event,
        context,
        organization: prepared.organization,
        lastSent: told,
        dedupKey: (kind) => `${event.id}:${participantId}:${kind}`,
      });
    }
  }

  /** Records the message the event calls for, if any and if it tells the participant something new, and remembers what it told. */
  private async mail(manager: EntityManager, { event, context, organization, lastSent, dedupKey }: Candidate): Promise<void> {
    const kind = messageKindFor(event.type, context.participant);
    if (!kind) return;
    const asOf = contextAsOf(context);
    // Read before what the participant was last told (another replica handled a later change first): no longer true.
    if (lastSent?.asOf && asOf < lastSent.asOf) return;
    const told: Told = { fingerprint: messageFingerprint(context), asOf };
    if (!isNews(kind, told.fingerprint, lastSent?.fingerprint)) return;
    const { name: organizationName, tier } = organization;
    // Live mail counts against the organization's ceiling of the day; past it, the message is kept, suppressed.
    const withinCeiling =
      !context.signup.livemode ||
      (await this.state.countEmail(manager, context.signup.organizationId, utcDay().day, this.config.tierLimits[tier].emailsPerDay));
    await this.emails.record(manager, {
      dedupKey: dedupKey(kind),
      kind,
      organizationId: context.signup.organizationId,
      senderName: organizationName,
      livemode: context.signup.livemode,
      signupId: context.signup.id,
      participantId: context.participant.id,
      to: context.participant.email,
      suppress: !withinCeiling,
      content: participantEmail(context, organizationName, kind, this.emails.fromAddress),
    });
    // A message the ceiling kept back told nothing: the next event tells the participant what is true then.
    if (withinCeiling) await this.state.remember(manager, context.participant.id, told);
  }
}
