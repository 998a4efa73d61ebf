import { Injectable } from '@nestjs/common';
import {
  type AdminCreateApiKeyDto,
  type ApiKeyView,
  constantTimeEqual,
  type CreatedApiKey,
  newPrefixedId,
  type Principal,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import { parseScopeString } from '#libs/scopes';
import { organizationNotFound } from '../organizations/organization.errors.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import type { ApiKey } from './api-key.js';
import { scopesOf, toApiKeyView } from './api-key.view.js';
import { displayPrefix, generateApiKey, hashApiKey, isKeyHash } from './api-key-secret.js';
import { ApiKeysRepository } from './api-keys.repository.js';

function invalidKey(): ProblemError {
  return new ProblemError('invalid_credentials', 'The API key is not recognized.');
}

function apiKeyNotFound(id: string): ProblemError {
  return new ProblemError('not_found', `No API key with id "${id}".`);
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly outbox: Outbox,
    private readonly keys: ApiKeysRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** Creates a key for a member of the organization (its first owner by default); the key is in the answer only. */
  async create(input: AdminCreateApiKeyDto): Promise<CreatedApiKey> {
    const org = await this.organizations.findById(input.organizationId);
    if (!org) throw organizationNotFound(input.organizationId);
    const userId = await this.keyOwner(org.id, input.userId);
    const mode = input.mode ?? 'test';
    const key = generateApiKey(mode);
    const apiKey: ApiKey = {
      id: newPrefixedId('key'),
      organizationId: org.id,
      userId,
      name: input.name ?? null,
      mode,
      scopes: input.scopes === undefined ? null : parseScopeString(input.scopes).scopes,
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      createdAt: new Date(),
      revokedAt: null,
    };
    await this.keys.insert(apiKey);
    const { id, ...view } = toApiKeyView(apiKey);
    return { id, key, ...view };
  }

  /** Revokes a key and emits auth.apikey.revoked with it; revoking a revoked key changes nothing. */
  revoke(id: string): Promise<ApiKeyView> {
    return this.outbox.transaction(async (tx) => {
      const key = await this.keys.lockById(tx.manager, id);
      if (!key) throw apiKeyNotFound(id);
      if (key.revokedAt) return toApiKeyView(key);
      const revoked = await this.keys.markRevoked(tx.manager, key.id, new Date());
      const livemode = key.mode === 'live';
      await tx.emit(
        'auth.apikey.revoked',
        { apiKeyId: key.id, organizationId: key.organizationId, livemode },
        { orgid: key.organizationId, livemode },
      );
      return toApiKeyView(revoked);
    });
  }

  /**
   * The principal a key acts as, found by the SHA-256 (hex) of the key (the plain key never travels on the bus):
   * invalid_credentials when malformed or unknown, revoked_credentials when revoked.
   */
  async verify(keyHash: unknown): Promise<Principal> {
    if (!isKeyHash(keyHash)) throw invalidKey();
    const found = await this.keys.findByHash(keyHash);
    if (!found || !constantTimeEqual(keyHash, found.keyHash)) throw invalidKey();
    if (found.revokedAt) throw new ProblemError('revoked_credentials', 'The API key was revoked.');
    const org = await this.organizations.findById(found.organizationId);
    if (!org) throw invalidKey();
    return {
      userId: found.userId,
      organizationId: org.id,
      tier: org.tier,
      livemode: found.mode === 'live',
      scopes: scopesOf(found),
      credentialId: found.id,
      kind: 'api_key',
    };
  }

  private async keyOwner(organizationId: string, userId: string | undefined): Promise<string> {
    if (userId !== undefined) {
      if (!(await this.users.findMembership(userId, organizationId))) {
        throw ProblemError.validation([{ path: 'userId', message: 'Not a member of this organization' }]);
      }
      return userId;
    }
    const owner = await this.users.firstOwner(organizationId);
    if (!owner) {
      throw new ProblemError(
        'bad_request',
        `Organization "${organizationId}" has no owner to create the key for: create a user first (user:create) or pass userId.`,
      );
    }
    return owner.userId;
  }
}
