import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { EmailView, Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG, BUS } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import { Emails } from './emails.js';
import { EmailsRepository } from './emails.repository.js';

/** At most this many emails in a listing (the newest). */
export const EMAIL_LIST_MAX = 100;

/** The stored emails people and integrators read: a sandbox signup's, and the all-in-one mailbox. */
@Injectable()
export class ListEmailsUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly repository: EmailsRepository,
    private readonly emails: Emails,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
  ) {}

  /** The emails of a signup the principal owns, newest first; none for a live signup (like the SMS outbox). */
  async ofSignup(principal: Principal, signupId: string): Promise<EmailView[]> {
    const signup = await this.bus.request('signups.reminders.target', { principal, signupId });
    if (signup.livemode) return [];
    return (await this.repository.list({ signupId: signup.id }, EMAIL_LIST_MAX)).map((row) => this.emails.view(row));
  }

  /** The newest stored emails of every organization: only for a local run's mailbox (MAILBOX_PAGE), not_found otherwise. */
  async mailbox(limit: number): Promise<EmailView[]> {
    this.assertMailbox();
    return (await this.repository.list({ stored: true }, Math.min(Math.max(1, limit), EMAIL_LIST_MAX))).map((row) => this.emails.view(row));
  }

  /** One stored email; 404 for any other (sent, failed…) or unknown one. */
  async mailboxMessage(id: string): Promise<EmailView> {
    this.assertMailbox();
    const row = await this.repository.get(id);
    if (!row || row.status !== 'stored') throw new ProblemError('not_found', 'No stored email with this id.');
    return this.emails.view(row);
  }

  private assertMailbox(): void {
    if (!this.config.mailboxPage) throw new ProblemError('not_found', 'There is no mailbox here: MAILBOX_PAGE is off.');
  }

  /** 404 for a token the platform did not make. */
  async unsubscribe(token: string): Promise<{ unsubscribed: true }> {
    if (!(await this.emails.unsubscribe(token))) throw new ProblemError('not_found', 'This unsubscribe link is not valid.');
    return { unsubscribed: true };
  }
}
