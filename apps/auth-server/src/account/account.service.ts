import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type ApiKeyView,
  type CreatedApiKey,
  isPlainId,
  type KeyMode,
  type MemberRole,
  newPrefixedId,
  newSlug,
  timeZoneOf,
} from '#libs/contracts';
import { Outbox } from '#libs/runtime';
import type { Scope } from '#libs/scopes';
import { toApiKeyView } from '../api-keys/api-key.view.js';
import { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { ApiKeysService } from '../api-keys/api-keys.service.js';
import { OAuthGrants } from '../oauth/oauth-grants.js';
import type { ConnectedApp } from '../oauth/oauth-grants.repository.js';
import { noFreeSlug } from '../organizations/organization.errors.js';
import type { Organization } from '../organizations/organization.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import { OrganizationsService } from '../organizations/organizations.service.js';
import { hashPassword } from '../users/password.js';
import { UsersRepository } from '../users/users.repository.js';
import type { SignupCommand } from './signup-form.js';

export type AccountErrorCode = 'not_found' | 'forbidden' | 'email_taken' | 'email_unverified';

/** A refusal of an account page's action, mapped to a page by the controller. */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

const SLUG_ATTEMPTS = 5;
/** The roles that run an organization: its keys and its settings. */
export const MANAGING_ROLES: readonly MemberRole[] = ['owner', 'admin'];

export interface MyOrganization {
  organization: Organization;
  role: MemberRole;
}

export interface OrganizationDetails extends MyOrganization {
  members: { email: string; role: MemberRole }[];
}

export interface NewKey {
  name: string | undefined;
  mode: KeyMode;
  scopes: Scope[];
}

export interface ConnectedAppView extends ConnectedApp {
  organizationName: string | null;
}

function noOrganization(): AccountError {
  return new AccountError('not_found', 'You are not a member of that organization.');
}

/** The use cases behind the account pages, each acting as the signed-in user. */
@Injectable()
export class AccountService {
  constructor(
    private readonly outbox: Outbox,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly organizationsService: OrganizationsService,
    private readonly keys: ApiKeysRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly grants: OAuthGrants,
  ) {}

  /** A new free organization with the new user as its owner, in one transaction; the user's id. */
  async signUp(command: SignupCommand): Promise<string> {
    const passwordHash = await hashPassword(command.password);
    return this.outbox.transaction(async (tx) => {
      const now = new Date();
      const org = await this.insertOrganization(tx.manager, command.organizationName, command.timeZone, now);
      const user = { id: newPrefixedId('usr'), email: command.email, passwordHash, emailVerifiedAt: null, createdAt: now };
      if (!(await this.users.insert(tx.manager, user, { userId: user.id, organizationId: org.id, role: 'owner', createdAt: now })))
        throw emailTaken();
      return user.id;
    });
  }

  async email(userId: string): Promise<string | undefined> {
    return (await this.users.findById(userId))?.email;
  }

  /** The user's organizations with their role, oldest membership first. */
  async organizationsOf(userId: string): Promise<MyOrganization[]> {
    const mine: MyOrganization[] = [];
    for (const membership of await this.users.memberships(userId)) {
      const organization = await this.organizations.findById(membership.organizationId);
      if (organization) mine.push({ organization, role: membership.role });
    }
    return mine;
  }

  async overview(userId: string): Promise<OrganizationDetails[]> {
    const mine = await this.organizationsOf(userId);
    return Promise.all(mine.map(async (m) => ({ ...m, members: await this.users.members(m.organization.id) })));
  }

  /** One of the user's organizations: the one asked for, or the first. */
  async chooseOrganization(userId: string, organizationId: string | undefined): Promise<{ chosen: MyOrganization; all: MyOrganization[] }> {
    const all = await this.organizationsOf(userId);
    const chosen = organizationId ? all.find((m) => m.organization.id === organizationId) : all[0];
    if (!chosen) throw noOrganization();
    return { chosen, all };
  }

  async keysOf(organizationId: string): Promise<ApiKeyView[]> {
    return (await this.keys.listByOrganization(organizationId)).map(toApiKeyView);
  }

  /** The user's email and whether it is verified. */
  async emailOf(userId: string): Promise<{ email: string; verified: boolean } | undefined> {
    const user = await this.users.findById(userId);
    return user && { email: user.email, verified: user.emailVerifiedAt !== null };
  }

  /** Creates a key owned by the user; only owners and admins may, once their email is verified. */
  async createKey(userId: string, organizationId: string, key: NewKey): Promise<CreatedApiKey> {
    await this.requireManager(userId, organizationId, 'create or revoke API keys');
    if (!(await this.users.findById(userId))?.emailVerifiedAt) throw emailUnverified();
    return this.apiKeys.create({ organizationId, userId, mode: key.mode, scopes: key.scopes.join(' '), name: key.name });
  }

  /** Revokes a key of one of the user's organizations (owners and admins); its organization's id. */
  async revokeKey(userId: string, keyId: string): Promise<string> {
    const key = isPlainId(keyId) ? await this.keys.findById(keyId) : undefined;
    const membership = key ? await this.users.findMembership(userId, key.organizationId) : null;
    if (!key || !membership) throw new AccountError('not_found', 'There is no such API key in your organizations.');
    await this.requireManager(userId, key.organizationId, 'create or revoke API keys');
    await this.apiKeys.revoke(key.id);
    return key.organizationId;
  }

  /**
   * Sets the time zone of one of the user's organizations (owners and admins) through the admin
   * API's use case; false, changing nothing, when `value` is no time zone (timeZoneOf).
   */
  async setTimeZone(userId: string, organizationId: string, value: string): Promise<boolean> {
    await this.requireManager(userId, organizationId, 'change its time zone');
    const timeZone = timeZoneOf(value);
    if (!timeZone) return false;
    await this.organizationsService.update(organizationId, { timeZone });
    return true;
  }

  async connectedApps(userId: string): Promise<ConnectedAppView[]> {
    const names = new Map((await this.organizationsOf(userId)).map((m) => [m.organization.id, m.organization.name]));
    const apps = await this.grants.connectedApps(userId);
    return apps.map((app) => ({ ...app, organizationName: app.organizationId ? (names.get(app.organizationId) ?? null) : null }));
  }

  async disconnectApp(userId: string, grantId: string): Promise<void> {
    if (!isPlainId(grantId) || !(await this.grants.revokeForAccount(userId, grantId)))
      throw new AccountError('not_found', 'There is no such connected app.');
  }

  /** A new free organization under a fresh slug, in the caller's transaction. */
  private async insertOrganization(db: EntityManager, name: string, timeZone: string, now: Date): Promise<Organization> {
    for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
      const org = await this.organizations.insert(
        { id: newPrefixedId('org'), name, slug: newSlug(name, 'org'), tier: 'free', timeZone, createdAt: now, updatedAt: now },
        db,
      );
      if (org) return org;
    }
    throw noFreeSlug(name, SLUG_ATTEMPTS);
  }

  /** `act`: what only owners and admins may do, for the refusal ("create or revoke API keys"). */
  private async requireManager(userId: string, organizationId: string, act: string): Promise<void> {
    const membership = await this.users.findMembership(userId, organizationId);
    if (!membership) throw noOrganization();
    if (!MANAGING_ROLES.includes(membership.role)) {
      throw new AccountError('forbidden', `Only owners and admins of the organization can ${act}.`);
    }
  }
}

/** What waits for a verified address: creating API keys (here) and approving an app's access (the consent page). */
export const VERIFY_FIRST = 'Verify your email address first: open the link we emailed you, or send a new one.';

function emailUnverified(): AccountError {
  return new AccountError('email_unverified', VERIFY_FIRST);
}

function emailTaken(): AccountError {
  return new AccountError('email_taken', 'An account with this email already exists.');
}
