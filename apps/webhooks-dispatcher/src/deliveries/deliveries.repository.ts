import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { CloudEvent, DeliveryStatus } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { Batches, prepared, rowsOf, UUID_V7_SQL } from '#libs/persistence';
import { DATA_SOURCE, LOGGER } from '#libs/runtime';
import type { Owner } from '../endpoints/endpoint.js';
import { WEBHOOKS_SCHEMA } from '../schema.js';
import type { Delivery } from './delivery.js';

const DELIVERIES = `"${WEBHOOKS_SCHEMA}"."deliveries"`;
const ENDPOINTS = `"${WEBHOOKS_SCHEMA}"."endpoints"`;
const COLUMNS =
  'd.id, d.event_id, d.event_type, d.status, d.attempt_count, d.last_response_status, d.error_message, d.created_at, d.delivered_at, d.next_attempt_at';
/** An endpoint failing without a success for this long is paused. */
const FAILING_DAYS_BEFORE_PAUSE = 5;

/**
 * A failed attempt's outcome on its delivery, only under the claim it was sent with ($1 delivery,
 * $2 claim, $3 status: pending again or failed, $4 next attempt, $5 response status, $6 error):
 * no row when the claim is stale.
 */
const RECORD_ATTEMPT = `UPDATE ${DELIVERIES}
  SET status = $3, next_attempt_at = $4, locked_until = NULL, claim_id = NULL, last_response_status = $5, error_message = $6, delivered_at = NULL
  WHERE id = $1 AND claim_id = $2 AND status = 'pending'
  RETURNING endpoint_id`;

/**
 * Successful attempts ($1 deliveries, $2 claims, $3 response statuses), each only under the claim
 * it was sent with, and the run of failures of their endpoints ended. The endpoints are locked in
 * id order first, so two of these (of two replicas) never wait for each other in a cycle.
 */
const RECORD_SUCCESSES = prepared(`WITH attempt AS (
    UPDATE ${DELIVERIES} d
    SET status = 'succeeded', next_attempt_at = NULL, locked_until = NULL, claim_id = NULL, last_response_status = a.status, error_message = NULL, delivered_at = now()
    FROM unnest($1::uuid[], $2::uuid[], $3::integer[]) AS a(id, claim_id, status)
    WHERE d.id = a.id AND d.claim_id = a.claim_id AND d.status = 'pending'
    RETURNING d.endpoint_id
  ), locked AS (
    SELECT e.id FROM ${ENDPOINTS} e WHERE e.id IN (SELECT endpoint_id FROM attempt) ORDER BY e.id FOR NO KEY UPDATE
  )
  UPDATE ${ENDPOINTS} e SET consecutive_failures = 0, failing_since = NULL, last_success_at = now(), updated_at = now()
  FROM locked WHERE e.id = locked.id`);

/**
 * Why a failed attempt pauses its endpoint ($7 gone, $8 pause after, $9 failing days), or NULL
 * when it does not or the endpoint is paused already. It reads the endpoint's columns in the SET
 * of the update itself: a concurrent update of the row makes Postgres wait and evaluate it again
 * on the newest version, so no failure is lost without a lock taken beforehand.
 */
const PAUSE_REASON = `CASE WHEN e.paused THEN NULL
    WHEN $7 THEN 'gone'
    WHEN e.consecutive_failures + 1 >= $8 OR COALESCE(e.failing_since, now()) <= now() - make_interval(days => $9) THEN 'consecutive_failures'
  END`;

/** A failed attempt, counted on its endpoint, which it may pause. */
const RECORD_FAILURE = prepared(`WITH attempt AS (${RECORD_ATTEMPT})
  UPDATE ${ENDPOINTS} e
  SET consecutive_failures = e.consecutive_failures + 1, failing_since = COALESCE(e.failing_since, now()), last_failure_at = now(), updated_at = now(),
      paused = e.paused OR ${PAUSE_REASON} IS NOT NULL,
      paused_reason = COALESCE(e.paused_reason, ${PAUSE_REASON}),
      paused_at = CASE WHEN ${PAUSE_REASON} IS NOT NULL THEN now() ELSE e.paused_at END
  FROM attempt WHERE e.id = attempt.endpoint_id`);

/**
 * One delivery per matching endpoint of an event ($1 id, $2 type, $3 payload, $4 organization,
 * $5 mode), each with a UUID v7 made in the statement: how many endpoints match is known only here.
 */
const FAN_OUT = prepared(
  `INSERT INTO ${DELIVERIES} (id, endpoint_id, event_id, event_type, payload, status, next_attempt_at)
   SELECT ${UUID_V7_SQL}, e.id, $1, $2, $3, CASE WHEN e.paused THEN 'skipped' ELSE 'pending' END, CASE WHEN e.paused THEN NULL ELSE now() END
   FROM ${ENDPOINTS} e
   WHERE e.organization_id = $4 AND e.livemode = $5 AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[$2])
   ON CONFLICT (endpoint_id, event_id) DO NOTHING
   RETURNING status`,
);

/** Claims due attempts ($1 how many, $2 lease in seconds). */
const CLAIM_DUE = prepared(
  `WITH due AS (
     SELECT d.id FROM ${DELIVERIES} d JOIN ${ENDPOINTS} e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until <= now()) AND NOT e.paused
     ORDER BY d.next_attempt_at
     LIMIT $1
     FOR UPDATE OF d SKIP LOCKED
   )
   UPDATE ${DELIVERIES} d SET locked_until = now() + make_interval(secs => $2), attempt_count = d.attempt_count + 1, claim_id = gen_random_uuid()
   FROM due, ${ENDPOINTS} e
   WHERE d.id = due.id AND e.id = d.endpoint_id
   RETURNING d.id, d.claim_id, d.event_id, d.payload, d.attempt_count, d.endpoint_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
);

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  last_response_status: number | null;
  error_message: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
}

function fromRow(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    lastResponseStatus: row.last_response_status,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    nextAttemptAt: row.next_attempt_at,
  };
}

/** An attempt a worker holds: what to send, where, and with which (sealed) secrets. */
export interface ClaimedAttempt {
  id: string;
  /** The claim this worker holds; an outcome recorded under another claim is ignored. */
  claimId: string;
  eventId: string;
  payload: string;
  /** This attempt's number (1 for the first). */
  attempt: number;
  endpointId: string;
  url: string;
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** What an attempt came to. */
export interface AttemptRecord {
  status: number | null;
  errorMessage: string | null;
  /** pending with the next attempt's time, or the final status. */
  next: { status: 'pending'; at: Date } | { status: 'succeeded' | 'failed' };
  /** For a failure: 410 Gone pauses the endpoint at once. */
  gone?: boolean;
}

export interface DeliveryPosition {
  createdAt: Date;
  id: string;
}

/** Deliveries in Postgres: fan-out from events, claims of due attempts, their outcomes, the history. */
/** A successful attempt waiting for its record (DeliveriesRepository.record). */
interface SuccessfulAttempt {
  id: string;
  claimId: string;
  status: number | null;
}

/** Successful attempts recorded in one statement at most. */
const SUCCESSES_PER_RECORD = 64;

@Injectable()
export class DeliveriesRepository {
  private readonly successes: Batches<'succeeded', SuccessfulAttempt, void>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.successes = new Batches({
      run: (_succeeded, attempts) => this.recordSuccesses(attempts),
      max: SUCCESSES_PER_RECORD,
      onBatchFailed: (err, _succeeded, attempts) =>
        logger.warn({ err, attempts }, 'webhook successes not recorded together; recording them one by one'),
    });
  }

  /**
   * One delivery per matching endpoint of the event's organization and mode, in the caller's
   * transaction: pending and due now, or skipped when the endpoint is paused. Returns how many
   * pending ones it created: only those are work for a worker.
   */
  async fanOut(manager: EntityManager, event: CloudEvent, payload: string): Promise<number> {
    const created = await rowsOf<{ status: DeliveryStatus }>(manager, FAN_OUT, [
      event.id,
      event.type,
      payload,
      event.orgid,
      event.livemode,
    ]);
    return created.filter((delivery) => delivery.status === 'pending').length;
  }

  /**
   * Claims up to `limit` due attempts of endpoints that are not paused, for `leaseSeconds`:
   * rows locked by another worker are skipped, and a claim counts the attempt. A worker that
   * dies leaves its claim to expire; the next claim counts a new attempt.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<ClaimedAttempt[]> {
    const rows = await rowsOf<{
      id: string;
      claim_id: string;
      event_id: string;
      payload: string;
      attempt_count: number;
      endpoint_id: string;
      url: string;
      secret: string;
      previous_secret: string | null;
      previous_secret_expires_at: Date | null;
    }>(this.dataSource, CLAIM_DUE, [limit, leaseSeconds]);
    return rows.map((r) => ({
      id: r.id,
      claimId: r.claim_id,
      eventId: r.event_id,
      payload: r.payload,
      attempt: r.attempt_count,
      endpointId: r.endpoint_id,
      url: r.url,
      sealedSecret: r.secret,
      sealedPreviousSecret: r.previous_secret,
      previousSecretExpiresAt: r.previous_secret_expires_at,
    }));
  }

  /**
   * Records an attempt and its effect on the endpoint. Ignored when the claim is stale (a replay
   * or a newer claim took the delivery since), so each attempt counts once. Successes recorded
   * while others are being recorded go together in one statement (Batches); a failure is
   * recorded alone, since each counts on its endpoint.
   */
  async record(claim: ClaimedAttempt, record: AttemptRecord, pauseAfter: number): Promise<void> {
    if (record.next.status === 'succeeded')
      return this.successes.submit('succeeded', { id: claim.id, claimId: claim.claimId, status: record.status });
    const nextAt = record.next.status === 'pending' ? record.next.at : null;
    await rowsOf(this.dataSource, RECORD_FAILURE, [
      claim.id,
      claim.claimId,
      record.next.status,
      nextAt,
      record.status,
      record.errorMessage,
      record.gone === true,
      pauseAfter,
      FAILING_DAYS_BEFORE_PAUSE,
    ]);
  }

  private async recordSuccesses(attempts: readonly SuccessfulAttempt[]): Promise<void[]> {
    await rowsOf(this.dataSource, RECORD_SUCCESSES, [
      attempts.map((a) => a.id),
      attempts.map((a) => a.claimId),
      attempts.map((a) => a.status),
    ]);
    return attempts.map(() => undefined);
  }

  /** The endpoint's deliveries, newest first; undefined when the owner has no such endpoint. */
  async list(owner: Owner, endpointId: string, limit: number, after?: DeliveryPosition): Promise<Delivery[] | undefined> {
    const [endpoint] = await rowsOf(
      this.dataSource,
      `SELECT 1 FROM ${ENDPOINTS} WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [endpointId, owner.organizationId, owner.livemode],
    );
    if (!endpoint) return undefined;
    const params: unknown[] = [endpointId, limit];
    let where = 'd.endpoint_id = $1';
    if (after) {
      params.push(after.createdAt, after.id);
      where += ' AND (d.created_at, d.id) < ($3::timestamptz, $4::uuid)';
    }
    const rows = await rowsOf<DeliveryRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM ${DELIVERIES} d WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      params,
    );
    return rows.map(fromRow);
  }

  /**
   * Back to pending, due now, with its attempts counted afresh. 'sending' while a worker holds
   * an attempt of it (a replay then would send it twice at once); undefined when the owner has
   * no such delivery.
   */
  async replay(owner: Owner, deliveryId: string): Promise<Delivery | 'sending' | undefined> {
    const [row] = await rowsOf<DeliveryRow>(
      this.dataSource,
      `UPDATE ${DELIVERIES} d
       SET status = 'pending', attempt_count = 0, next_attempt_at = now(), locked_until = NULL, claim_id = NULL, error_message = NULL,
           last_response_status = NULL, delivered_at = NULL
       FROM ${ENDPOINTS} e
       WHERE d.id = $1 AND e.id = d.endpoint_id AND e.organization_id = $2 AND e.livemode = $3 AND (d.locked_until IS NULL OR d.locked_until <= now())
       RETURNING ${COLUMNS}`,
      [deliveryId, owner.organizationId, owner.livemode],
    );
    if (row) return fromRow(row);
    const [held] = await rowsOf(
      this.dataSource,
      `SELECT 1 FROM ${DELIVERIES} d JOIN ${ENDPOINTS} e ON e.id = d.endpoint_id WHERE d.id = $1 AND e.organization_id = $2 AND e.livemode = $3`,
      [deliveryId, owner.organizationId, owner.livemode],
    );
    return held ? 'sending' : undefined;
  }
}
