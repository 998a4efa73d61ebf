import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  type CursorList,
  decodeCursor,
  encodeCursor,
  type Page,
  pageOf,
  type Principal,
  requireIfMatch,
  type UpdateWebhookInput,
  type WebhookEndpointView,
  type WebhookWithSecretView,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { DATA_SOURCE } from '#libs/runtime';
import { generateSigningSecret } from '../../signing/index.js';
import { type Endpoint, ownerOf } from '../endpoint.js';
import { endpointView } from '../endpoint.presenter.js';
import { EndpointRules, normalizeEventTypes } from '../endpoint-rules.js';
import { EndpointsRepository } from '../endpoints.repository.js';

function notFound(): ProblemError {
  return new ProblemError('not_found', 'No webhook endpoint with this id.');
}

function found(endpoint: Endpoint | undefined): WebhookEndpointView {
  if (!endpoint) throw notFound();
  return endpointView(endpoint);
}

/**
 * Reads and plain writes of the caller's endpoints (its organization and mode). Another
 * organization's endpoint, or the other mode's, is not found, like one that does not exist.
 * An edit or deletion with If-Match locks the endpoint's row in its transaction and compares the
 * tag of the endpoint as `webhooks.get` answers it (endpointView) before writing: of two writes
 * sent with one tag, the second sees the first's result and gets 412 precondition_failed.
 */
@Injectable()
export class ManageEndpointsUseCase {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly rules: EndpointRules,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  async get(principal: Principal, id: string): Promise<WebhookEndpointView> {
    return found(await this.endpoints.find(ownerOf(principal), id));
  }

  async list(principal: Principal, limit: number, cursor?: string): Promise<Page<WebhookEndpointView>> {
    const owner = ownerOf(principal);
    const list: CursorList = { list: 'webhooks.list', ...owner };
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'createdAt', list);
    const page = pageOf(await this.endpoints.list(owner, limit + 1, after), limit, (last) =>
      encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }, list),
    );
    return { data: page.data.map(endpointView), nextCursor: page.nextCursor };
  }

  async update(principal: Principal, id: string, input: UpdateWebhookInput, ifMatch?: string): Promise<WebhookEndpointView> {
    const url = input.url === undefined ? undefined : await this.rules.acceptUrl(principal, input.url);
    const eventTypes = input.eventTypes === undefined ? undefined : normalizeEventTypes(input.eventTypes);
    const changes = { url, description: input.description, eventTypes };
    if (ifMatch === undefined) return found(await this.endpoints.update(ownerOf(principal), id, changes));
    return this.dataSource.transaction(async (manager) => {
      await this.requireCurrent(manager, principal, id, ifMatch);
      return found(await this.endpoints.update(ownerOf(principal), id, changes, manager));
    });
  }

  /** Deletes the endpoint with its delivery history; answers the endpoint as it was. */
  async delete(principal: Principal, id: string, ifMatch?: string): Promise<WebhookEndpointView> {
    if (ifMatch === undefined) return found(await this.endpoints.delete(ownerOf(principal), id));
    return this.dataSource.transaction(async (manager) => {
      await this.requireCurrent(manager, principal, id, ifMatch);
      return found(await this.endpoints.delete(ownerOf(principal), id, manager));
    });
  }

  /** Locks the endpoint and checks If-Match against it: 404 when there is none, 412 when the tag is not current. */
  private async requireCurrent(manager: EntityManager, principal: Principal, id: string, ifMatch: string): Promise<void> {
    requireIfMatch(ifMatch, found(await this.endpoints.lock(manager, ownerOf(principal), id)));
  }

  async pause(principal: Principal, id: string): Promise<WebhookEndpointView> {
    return found(await this.endpoints.pause(ownerOf(principal), id, 'manual'));
  }

  async resume(principal: Principal, id: string): Promise<WebhookEndpointView> {
    return found(await this.endpoints.resume(ownerOf(principal), id));
  }

  /** A new signing secret, shown once; the previous one keeps signing for 24 hours. */
  async rotate(principal: Principal, id: string): Promise<WebhookWithSecretView> {
    const signingSecret = generateSigningSecret();
    const endpoint = found(await this.endpoints.rotate(ownerOf(principal), id, this.rules.seal(signingSecret)));
    return { endpoint, signingSecret };
  }
}
