import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { CloudEvent } from '#libs/contracts';
import { prepared, rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import type { Owner } from '../endpoints/endpoint.js';
import { WEBHOOKS_SCHEMA } from '../schema.js';

const EVENTS = `"${WEBHOOKS_SCHEMA}"."events"`;

/** Every event once, as its webhook body ($1 id, $2 organization, $3 mode, $4 type, $5 body, $6 time). */
const RECORD = prepared(
  `INSERT INTO ${EVENTS} (id, organization_id, livemode, type, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
);

/** Only rows whose transaction ended before every transaction still running began: no row can come before them later. */
const SETTLED = `tx_id < pg_snapshot_xmin(pg_current_snapshot())`;

/** Where a row stands in its organization's log: its transaction, then its order in it (both as decimal text). */
export interface LogPosition {
  txId: string;
  seq: string;
  /** The event's time, for the retention window. */
  createdAt: Date;
}

export interface LoggedEvent extends LogPosition {
  id: string;
  payload: string;
}

export interface LogFilter {
  types?: readonly string[];
  createdGte?: Date;
  createdLt?: Date;
}

interface EventRow {
  id: string;
  payload: string;
  tx_id: string;
  seq: string;
  created_at: Date;
}

const fromRow = (row: EventRow): LoggedEvent => ({
  id: row.id,
  payload: row.payload,
  txId: row.tx_id,
  seq: row.seq,
  createdAt: row.created_at,
});

/** The event log in Postgres: recorded by the fan-out, read by organization and mode. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Records an event in the caller's transaction (the fan-out's); a second record of its id changes nothing. */
  async record(manager: EntityManager, event: CloudEvent, payload: string): Promise<void> {
    await rowsOf(manager, RECORD, [event.id, event.orgid, event.livemode, event.type, payload, event.time]);
  }

  /**
   * The position of an event of the owner's log, and whether it is settled (listed: no event can
   * come before it later); undefined when the log has none with this id.
   */
  async positionOf(owner: Owner, id: string): Promise<(LogPosition & { settled: boolean }) | undefined> {
    const [row] = await rowsOf<EventRow & { settled: boolean }>(
      this.dataSource,
      `SELECT tx_id::text AS tx_id, seq::text AS seq, created_at, ${SETTLED} AS settled
       FROM ${EVENTS} WHERE id = $1 AND organization_id = $2 AND livemode = $3`,
      [id, owner.organizationId, owner.livemode],
    );
    return row && { txId: row.tx_id, seq: row.seq, createdAt: row.created_at, settled: row.settled };
  }

  /**
   * How many of the `sample` newest events (by time, on its index) carry a transaction id the
   * server has not handed out yet: rows from another cluster (a restore from a logical copy,
   * docs/deploy.md), which readers would not see, and which would hide the events after them.
   */
  async recordedAhead(sample: number): Promise<number> {
    const [row] = await rowsOf<{ ahead: number }>(
      this.dataSource,
      `SELECT count(*)::int AS ahead FROM (SELECT tx_id FROM ${EVENTS} ORDER BY created_at DESC LIMIT $1) newest
       WHERE tx_id >= pg_snapshot_xmax(pg_current_snapshot())`,
      [sample],
    );
    return row!.ahead;
  }

  /**
   * Up to `limit` settled events of the owner's log that pass the filter: newest first, or
   * (ascending) oldest first; after `from` in that direction when given.
   */
  async list(
    owner: Owner,
    filter: LogFilter,
    direction: 'asc' | 'desc',
    from: LogPosition | undefined,
    limit: number,
  ): Promise<LoggedEvent[]> {
    const params: unknown[] = [owner.organizationId, owner.livemode];
    let where = `organization_id = $1 AND livemode = $2 AND ${SETTLED}`;
    if (filter.types) {
      params.push(filter.types);
      where += ` AND type = ANY($${params.length}::text[])`;
    }
    if (filter.createdGte) {
      params.push(filter.createdGte);
      where += ` AND created_at >= $${params.length}::timestamptz`;
    }
    if (filter.createdLt) {
      params.push(filter.createdLt);
      where += ` AND created_at < $${params.length}::timestamptz`;
    }
    if (from) {
      params.push(from.txId, from.seq);
      where += ` AND (tx_id, seq) ${direction === 'asc' ? '>' : '<'} ($${params.length - 1}::xid8, $${params.length}::bigint)`;
    }
    params.push(limit);
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    const rows = await rowsOf<EventRow>(
      this.dataSource,
      `SELECT id, payload, tx_id::text AS tx_id, seq::text AS seq, created_at FROM ${EVENTS}
       WHERE ${where} ORDER BY tx_id ${order}, seq ${order} LIMIT $${params.length}`,
      params,
    );
    return rows.map(fromRow);
  }
}
