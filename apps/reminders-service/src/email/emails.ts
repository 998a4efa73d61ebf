import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type EmailCalendarView, type EmailKind, type EmailStatus, type EmailView, newId } from '#libs/contracts';
import { SecretBox } from '#libs/crypto';
import type { Counter, Metrics } from '#libs/observability';
import { APP_CONFIG, METRICS } from '#libs/runtime';
import { displayName } from '../messages/index.js';
import type { RemindersConfig } from '../reminders.config.js';
import { type EmailRow, EmailsRepository } from './emails.repository.js';
import { headerText } from './header-text.js';

/** What a message says: its subject, both parts, and an invitation when it has one. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  calendar: EmailCalendarView | null;
}

/** A message to record: what it answers (its dedup key: the event and the kind), whom it goes to, and what it says. */
export interface NewEmail {
  dedupKey: string;
  kind: EmailKind;
  /** The organization the message is from (its name is the sender's); null for the platform's own (account) messages. */
  organizationId: string | null;
  senderName: string;
  livemode: boolean;
  signupId: string | null;
  participantId: string | null;
  to: string;
  content: EmailContent;
  /** Recorded suppressed, never sent (the organization's daily ceiling was reached). */
  suppress?: boolean;
}

/** What is sealed in a row: the message as it goes out. */
interface SealedMessage {
  from: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  calendar: EmailCalendarView | null;
  unsubscribeUrl: string | null;
}

/** An email opened from its row. */
export interface OpenedEmail extends EmailRow, SealedMessage {}

/** What emails_total counts a message as, once: where it ended. */
export type EmailOutcome = 'stored' | 'sent' | 'failed' | 'suppressed';

/** The sender address of stored mail when MAIL_FROM is unset (nothing is sent then). */
const STORED_FROM = 'no-reply@localhost';
const SUBJECT_MAX = 200;

/**
 * The email outbox (docs/decisions.md, "Email"): records messages in the transaction of what
 * caused them, sealed, once per dedup key; the EmailSender sends the queued ones. Sandbox
 * messages, and every message when there is no SMTP_URL, are stored and never sent.
 */
@Injectable()
export class Emails {
  private readonly box: SecretBox;
  /** Unsubscribe tokens are sealed apart from stored emails: neither opens as the other. */
  private readonly unsubscribeBox: SecretBox;
  private readonly from: string;
  private readonly origin: string;
  private readonly messages: Counter<'kind' | 'outcome'>;
  /** The sender's wake-up, once it runs. */
  onQueued?: () => void;

  constructor(
    private readonly repository: EmailsRepository,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
    @Inject(METRICS) metrics: Metrics,
  ) {
    this.box = new SecretBox(config.emailSecretKey);
    this.unsubscribeBox = SecretBox.forPurpose(config.emailSecretKey, 'unsubscribe tokens v1');
    this.from = config.mailFrom ?? STORED_FROM;
    this.origin = new URL(config.publicBaseUrl).origin;
    this.messages = metrics.counter(
      'emails_total',
      'Emails by kind and where they ended: sent, failed, suppressed, or stored (never sent)',
      ['kind', 'outcome'],
    );
  }

  /** The sender address of every email (MAIL_FROM). */
  get fromAddress(): string {
    return this.from;
  }

  /** Whether live messages go out (SMTP_URL is set). */
  get sending(): boolean {
    return this.config.smtpUrl !== undefined;
  }

  /**
   * Records a message in `db`'s transaction; answers its id and status, or undefined when its dedup
   * key was recorded before (a redelivered event). Sandbox messages are stored, never sent.
   */
  async record(db: EntityManager, email: NewEmail): Promise<{ id: string; status: EmailStatus } | undefined> {
    const message: SealedMessage = {
      from: { name: displayName(email.senderName) || 'Signups', address: this.from },
      subject: headerText(email.content.subject, SUBJECT_MAX),
      text: email.content.text,
      html: email.content.html,
      calendar: email.content.calendar,
      unsubscribeUrl: email.kind === 'reminder' && email.organizationId ? this.unsubscribeUrl(email.organizationId, email.to) : null,
    };
    const recorded = await this.repository.record(db, {
      id: newId(),
      dedupKey: email.dedupKey,
      kind: email.kind,
      organizationId: email.organizationId,
      livemode: email.livemode,
      signupId: email.signupId,
      participantId: email.participantId,
      to: email.to,
      sealed: this.box.seal(JSON.stringify(message)),
      send: email.livemode && this.sending,
      suppress: email.suppress ?? false,
    });
    if (!recorded) return undefined;
    if (recorded.status !== 'queued') this.count(email.kind, recorded.status as EmailOutcome);
    return recorded;
  }

  /** After a transaction that recorded queued emails committed: the sender looks at once instead of at its next poll. */
  queued(): void {
    this.onQueued?.();
  }

  count(kind: EmailKind, outcome: EmailOutcome): void {
    this.messages.inc({ kind, outcome });
  }

  open(row: EmailRow): OpenedEmail {
    return { ...row, ...(JSON.parse(this.box.open(row.sealed)) as SealedMessage) };
  }

  view(row: EmailRow): EmailView {
    const email = this.open(row);
    return {
      id: email.id,
      kind: email.kind,
      status: email.status,
      from: email.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      calendar: email.calendar,
      unsubscribeUrl: email.unsubscribeUrl,
      signupId: email.signupId,
      participantId: email.participantId,
      createdAt: email.createdAt.toISOString(),
      sentAt: email.sentAt?.toISOString() ?? null,
    };
  }

  /** The Message-ID of an email: the same on every attempt, on the sender's domain. */
  messageIdOf(id: string): string {
    return `<${id}@${this.from.slice(this.from.lastIndexOf('@') + 1)}>`;
  }

  /** The one-click unsubscribe link of an address for one organization's reminders: its token is sealed, so nobody can make one. */
  unsubscribeUrl(organizationId: string, address: string): string {
    return `${this.origin}/unsubscribe/${this.unsubscribeBox.seal(JSON.stringify([organizationId, address.toLowerCase()]))}`;
  }

  /** Stops an organization's reminders to the address a token names; false for a token we did not make. */
  async unsubscribe(token: string): Promise<boolean> {
    let named: unknown;
    try {
      named = JSON.parse(this.unsubscribeBox.open(token));
    } catch {
      return false;
    }
    if (!Array.isArray(named) || named.length !== 2 || !named.every((part) => typeof part === 'string')) return false;
    const [organizationId, address] = named as [string, string];
    await this.repository.suppress(address, organizationId, 'unsubscribed');
    return true;
  }
}
