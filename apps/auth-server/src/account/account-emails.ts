import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Bus } from '#libs/bus';
import { type AccountEmailKind, newId } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { APP_CONFIG, BUS, DATA_SOURCE, LOGGER } from '#libs/runtime';
import type { AuthConfig } from '../auth.config.js';
import { OAuthSessionsRepository } from '../oauth/oauth-sessions.repository.js';
import { hashPassword } from '../users/password.js';
import type { User } from '../users/user.js';
import { UsersRepository } from '../users/users.repository.js';
import { AccountSessions } from './account-session.js';
import { type AccountTokenPurpose, AccountTokensRepository } from './account-tokens.repository.js';

/** How long a verification link works: a day, time to find the email in another mailbox or device. */
export const VERIFICATION_LINK_SECONDS = 24 * 3600;
/** How long a password reset link works: an hour, as a reset is asked for when it is needed. */
export const RESET_LINK_SECONDS = 3600;

/** The path of each link under AUTH_URL; the token follows. */
export const LINK_PATHS: Record<AccountTokenPurpose, string> = {
  verify_email: '/account/verify/',
  reset_password: '/account/reset-password/',
};

const KINDS: Record<AccountTokenPurpose, AccountEmailKind> = { verify_email: 'account_verification', reset_password: 'password_reset' };

/**
 * Email verification and password reset (docs/decisions.md, "Account email"): each link's token
 * is made and kept here (its SHA-256), and the reminders-service mails the link
 * (reminders.emails.account). Tokens, links and passwords are never logged.
 */
@Injectable()
export class AccountEmails implements OnApplicationShutdown {
  private readonly authUrl: string;
  /** Password resets asked for whose link is still being made and handed to the mailer. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly tokens: AccountTokensRepository,
    private readonly sessions: AccountSessions,
    private readonly oauthSessions: OAuthSessionsRepository,
  ) {
    this.authUrl = new URL(config.authUrl).origin;
  }

  /** Whether the user's address is verified (false for a user that no longer exists). */
  async verified(userId: string): Promise<boolean> {
    return Boolean((await this.users.findById(userId))?.emailVerifiedAt);
  }

  /** Mails the user a new verification link (earlier ones stop working); false when it could not be handed to the mailer. */
  sendVerification(user: Pick<User, 'id' | 'email'>): Promise<boolean> {
    return this.sendLink(user, 'verify_email', VERIFICATION_LINK_SECONDS);
  }

  /** Verifies the address of the token's user, using the token up; false for a token that is not (or no longer) valid. */
  verify(token: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const userId = await this.tokens.consume(manager, token, 'verify_email');
      if (userId) await this.users.markEmailVerified(manager, userId);
      return userId !== undefined;
    });
  }

  /**
   * Mails a reset link when an account has this address, and does nothing otherwise, after the
   * caller has answered (the same either way, and as soon): the lookup and the link run on their own.
   */
  requestPasswordReset(email: string): void {
    const work = this.users
      .findByEmail(email)
      .then(async (user) => {
        if (user) await this.sendLink(user, 'reset_password', RESET_LINK_SECONDS);
      })
      .catch((err: unknown) => this.logger.error({ err }, 'password reset link not sent'))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Once every password reset asked for so far is done (mailed, found to have no account, or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  /** Whether a verification link's token still works (it is not used up by looking). */
  async verificationTokenValid(token: string): Promise<boolean> {
    return (await this.tokens.userOf(token, 'verify_email')) !== undefined;
  }

  /** Whether a reset link's token still works (it is not used up by looking). */
  async resetTokenValid(token: string): Promise<boolean> {
    return (await this.tokens.userOf(token, 'reset_password')) !== undefined;
  }

  /**
   * Sets a new password with a reset link's token, in one transaction: the token is used up, the
   * address counts as verified (the link reached it), and every session of the user ends, on the
   * account pages and at the OAuth provider. The user's id, or undefined for a token that is not
   * (or no longer) valid. Throws PasswordHashingBusy when too many passwords are being hashed.
   */
  async resetPassword(token: string, password: string): Promise<string | undefined> {
    if (!(await this.resetTokenValid(token))) return undefined;
    const passwordHash = await hashPassword(password);
    return this.dataSource.transaction(async (manager) => {
      const userId = await this.tokens.consume(manager, token, 'reset_password');
      if (!userId) return undefined;
      await this.users.setPasswordHash(manager, userId, passwordHash);
      await this.users.markEmailVerified(manager, userId);
      await this.sessions.endAllOf(manager, userId);
      await this.oauthSessions.endAllOf(manager, userId);
      return userId;
    });
  }

  private async sendLink(user: Pick<User, 'id' | 'email'>, purpose: AccountTokenPurpose, lifetimeSeconds: number): Promise<boolean> {
    const { token, expiresAt } = await this.dataSource.transaction((manager) =>
      this.tokens.issue(manager, user.id, purpose, lifetimeSeconds),
    );
    const kind = KINDS[purpose];
    try {
      await this.bus.request('reminders.emails.account', {
        requestId: newId(),
        to: user.email,
        kind,
        link: `${this.authUrl}${LINK_PATHS[purpose]}${token}`,
        expiresAt: expiresAt.toISOString(),
      });
      return true;
    } catch (err) {
      this.logger.warn({ err, userId: user.id, kind }, 'account email not handed to the reminders-service');
      return false;
    }
  }
}
