import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { PausedReason } from '#libs/contracts';
import { type Db, rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { WEBHOOKS_SCHEMA } from '../schema.js';
import { type Endpoint, type Owner, PREVIOUS_SECRET_SECONDS } from './endpoint.js';

const TABLE = `"${WEBHOOKS_SCHEMA}"."endpoints"`;
const COLUMNS = `id, organization_id, livemode, url, description, event_types, secret, previous_secret, previous_secret_expires_at,
  paused, paused_reason, paused_at, consecutive_failures, last_success_at, last_failure_at, created_at, updated_at`;

interface EndpointRow {
  id: string;
  organization_id: string;
  livemode: boolean;
  url: string;
  description: string;
  event_types: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  paused: boolean;
  paused_reason: PausedReason | null;
  paused_at: Date | null;
  consecutive_failures: number;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: EndpointRow): Endpoint {
  return {
    id: row.id,
    organizationId: row.organization_id,
    livemode: row.livemode,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    sealedSecret: row.secret,
    sealedPreviousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    paused: row.paused,
    pausedReason: row.paused_reason,
    pausedAt: row.paused_at,
    consecutiveFailures: row.consecutive_failures,
    lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewEndpoint = Pick<Endpoint, 'id' | 'organizationId' | 'livemode' | 'url' | 'description' | 'eventTypes' | 'sealedSecret'>;
export type EndpointChanges = Partial<Pick<Endpoint, 'url' | 'description' | 'eventTypes'>>;

/** The sort key of the endpoint list: newest first. */
export interface EndpointPosition {
  createdAt: Date;
  id: string;
}

/** Webhook endpoints in Postgres; every read and write is scoped to one owner (organization and mode). */
@Injectable()
export class EndpointsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * How many endpoints the organization has (both modes), with a transaction lock that holds
   * until the caller's transaction ends: creations of one organization that count first queue
   * there, so a cap checked on the count holds exactly.
   */
  async lockAndCount(manager: EntityManager, organizationId: string): Promise<number> {
    await rowsOf(manager, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`webhooks:endpoints:${organizationId}`]);
    const [row] = await rowsOf<{ count: number }>(manager, `SELECT count(*)::int AS count FROM ${TABLE} WHERE organization_id = $1`, [
      organizationId,
    ]);
    return row!.count;
  }

  async insert(manager: EntityManager, endpoint: NewEndpoint): Promise<Endpoint> {
    const [row] = await rowsOf<EndpointRow>(
      manager,
      `INSERT INTO ${TABLE} (id, organization_id, livemode, url, description, event_types, secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        endpoint.id,
        endpoint.organizationId,
        endpoint.livemode,
        endpoint.url,
        endpoint.description,
        endpoint.eventTypes,
        endpoint.sealedSecret,
      ],
    );
    return fromRow(row!);
  }

  async find(owner: Owner, id: string): Promise<Endpoint | undefined> {
    const [row] = await rowsOf<EndpointRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return row && fromRow(row);
  }

  /** The owner's endpoint, locked (FOR UPDATE) until the transaction ends: deliveries' and other writes' updates of it wait. */
  async lock(manager: EntityManager, owner: Owner, id: string): Promise<Endpoint | undefined> {
    const [row] = await rowsOf<EndpointRow>(
      manager,
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1 AND organization_id = $2 AND livemode = $3 FOR UPDATE`,
      [id, owner.organizationId, owner.livemode],
    );
    return row && fromRow(row);
  }

  /** One page of the owner's endpoints, newest first (keyset). */
  async list(owner: Owner, limit: number, after?: EndpointPosition): Promise<Endpoint[]> {
    const params: unknown[] = [owner.organizationId, owner.livemode, limit];
    let where = 'organization_id = $1 AND livemode = $2';
    if (after) {
      params.push(after.createdAt, after.id);
      where += ` AND (created_at, id) < ($4::timestamptz, $5::uuid)`;
    }
    const rows = await rowsOf<EndpointRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3`,
      params,
    );
    return rows.map(fromRow);
  }

  update(owner: Owner, id: string, changes: EndpointChanges, db: Db = this.dataSource): Promise<Endpoint | undefined> {
    return this.updateOwned(
      owner,
      id,
      'url = COALESCE($4, url), description = COALESCE($5, description), event_types = COALESCE($6, event_types)',
      [changes.url ?? null, changes.description ?? null, changes.eventTypes ?? null],
      db,
    );
  }

  /** Pauses by hand; an endpoint already paused keeps its reason and time. */
  pause(owner: Owner, id: string, reason: PausedReason): Promise<Endpoint | undefined> {
    return this.updateOwned(
      owner,
      id,
      `paused_reason = CASE WHEN paused THEN paused_reason ELSE $4 END, paused_at = CASE WHEN paused THEN paused_at ELSE now() END, paused = true`,
      [reason],
    );
  }

  /** Resumes, starting the failure count (and the five-day clock) afresh; replays nothing. */
  resume(owner: Owner, id: string): Promise<Endpoint | undefined> {
    return this.updateOwned(
      owner,
      id,
      'paused = false, paused_reason = NULL, paused_at = NULL, consecutive_failures = 0, failing_since = NULL',
      [],
    );
  }

  /** Makes `sealedSecret` the signing secret; the current one keeps signing for a day. */
  rotate(owner: Owner, id: string, sealedSecret: string): Promise<Endpoint | undefined> {
    return this.updateOwned(
      owner,
      id,
      `previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $5), secret = $4`,
      [sealedSecret, PREVIOUS_SECRET_SECONDS],
    );
  }

  async delete(owner: Owner, id: string, db: Db = this.dataSource): Promise<Endpoint | undefined> {
    const [row] = await rowsOf<EndpointRow>(
      db,
      `DELETE FROM ${TABLE} WHERE id = $1 AND organization_id = $2 AND livemode = $3 RETURNING ${COLUMNS}`,
      [id, owner.organizationId, owner.livemode],
    );
    return row && fromRow(row);
  }

  private async updateOwned(
    owner: Owner,
    id: string,
    assignments: string,
    params: unknown[],
    db: Db = this.dataSource,
  ): Promise<Endpoint | undefined> {
    const [row] = await rowsOf<EndpointRow>(
      db,
      `UPDATE ${TABLE} SET ${assignments}, updated_at = now() WHERE id = $1 AND organization_id = $2 AND livemode = $3 RETURNING ${COLUMNS}`,
      [id, owner.organizationId, owner.livemode, ...params],
    );
    return row && fromRow(row);
  }
}
