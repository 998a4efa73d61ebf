import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AccountEmailInput } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG, DATA_SOURCE } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import { accountMessage } from './account-messages.js';
import { Emails } from './emails.js';
import { EmailsRepository } from './emails.repository.js';

/**
 * The auth-server's account messages (reminders.emails.account): a verification or password
 * reset link, rendered here and recorded in the outbox once per request id and kind, from the
 * platform (no organization), always live: a person's own account has no sandbox.
 */
@Injectable()
export class AccountEmailsUseCase {
  private readonly authOrigin: string;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly emails: Emails,
    private readonly repository: EmailsRepository,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
  ) {
    this.authOrigin = new URL(config.authUrl).origin;
  }

  /** Records the message (nothing more when its request was recorded before) and answers its id. */
  async execute(input: AccountEmailInput): Promise<{ id: string }> {
    const link = this.checkedLink(input.link);
    const dedupKey = `${input.requestId}:${input.kind}`;
    const content = accountMessage({
      kind: input.kind,
      link,
      expiresAt: new Date(input.expiresAt),
      platformName: this.config.platformName,
    });
    const id = await this.dataSource.transaction(async (manager) => {
      await this.emails.record(manager, {
        dedupKey,
        kind: input.kind,
        organizationId: null,
        senderName: this.config.platformName,
        livemode: true,
        signupId: null,
        participantId: null,
        to: input.to,
        content,
      });
      return this.repository.idOf(manager, dedupKey);
    });
    this.emails.queued();
    return { id };
  }

  /** Only the auth-server's own pages are linked to: a link elsewhere is refused (422, path link). */
  private checkedLink(link: string): string {
    let url: URL | undefined;
    try {
      url = new URL(link);
    } catch {
      url = undefined;
    }
    if (!url || url.origin !== this.authOrigin || url.username || url.password) {
      throw ProblemError.validation([{ path: 'link', message: 'Must be a link to the auth-server (AUTH_URL)' }]);
    }
    return url.href;
  }
}
