import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Owner } from '../signups/signup.js';

const FEEDS = `"${SIGNUPS_SCHEMA}"."calendar_feeds"`;
const SIGNUPS = `"${SIGNUPS_SCHEMA}"."signups"`;
const SLOTS = `"${SIGNUPS_SCHEMA}"."slots"`;

/** One event of a feed: a slot of a signup, or a signup without slots (the slot fields null). */
export interface FeedEventRow {
  signup_id: string;
  slug: string;
  title: string;
  description: string | null;
  location: string | null;
  event_date: Date;
  time_zone: string;
  updated_at: Date;
  slot_id: string | null;
  slot_title: string | null;
  slot_description: string | null;
  start_time: Date | null;
  end_time: Date | null;
  slot_updated_at: Date | null;
}

/** The calendar feeds (one per organization and mode) and what a feed shows, in Postgres. */
@Injectable()
export class CalendarFeedsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** When the owner's feed was made; undefined without one. */
  async createdAt(owner: Owner): Promise<Date | undefined> {
    const [row] = await rowsOf<{ created_at: Date }>(
      this.dataSource.manager,
      `SELECT created_at FROM ${FEEDS} WHERE organization_id = $1 AND livemode = $2`,
      [owner.organizationId, owner.livemode],
    );
    return row?.created_at;
  }

  /** Gives the owner's feed this token (its hash), replacing any other; when it was made. */
  async replace(owner: Owner, tokenHash: string): Promise<Date> {
    const [row] = await rowsOf<{ created_at: Date }>(
      this.dataSource.manager,
      `INSERT INTO ${FEEDS} (organization_id, livemode, token_hash) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, livemode)
         DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = date_trunc('milliseconds', now())
       RETURNING created_at`,
      [owner.organizationId, owner.livemode, tokenHash],
    );
    return row!.created_at;
  }

  /**
   * Deletes the owner's feed, in a transaction that first hands `check` when the deleted feed was
   * made (undefined when there was none): the row as the DELETE locked it, after any replacement
   * it waited for. When `check` throws, nothing is deleted.
   */
  async delete(owner: Owner, check: (createdAt: Date | undefined) => void): Promise<void> {
    await this.dataSource.transaction(async (db) => {
      const [row] = await rowsOf<{ created_at: Date }>(
        db,
        `DELETE FROM ${FEEDS} WHERE organization_id = $1 AND livemode = $2 RETURNING created_at`,
        [owner.organizationId, owner.livemode],
      );
      check(row?.created_at);
    });
  }

  /** Whose feed a token's hash opens; undefined for none (revoked, replaced, never made). */
  async ownerOf(tokenHash: string): Promise<Owner | undefined> {
    const [row] = await rowsOf<{ organization_id: string; livemode: boolean }>(
      this.dataSource.manager,
      `SELECT organization_id, livemode FROM ${FEEDS} WHERE token_hash = $1`,
      [tokenHash],
    );
    return row && { organizationId: row.organization_id, livemode: row.livemode };
  }

  /**
   * The events of the owner's published and closed signups that end after `since` (a slot ends
   * at its end, or its start, or the signup's date; a signup without slots at its date), the
   * earliest first, at most `limit`.
   */
  events(owner: Owner, since: Date, limit: number): Promise<FeedEventRow[]> {
    return rowsOf<FeedEventRow>(
      this.dataSource.manager,
      `WITH owned AS (
         SELECT id, slug, title, description, location, event_date, time_zone, updated_at FROM ${SIGNUPS}
         WHERE organization_id = $1 AND livemode = $2 AND status IN ('published', 'closed')
       ),
       feed AS (
         SELECT s.*, t.id AS slot_id, t.title AS slot_title, t.description AS slot_description, t.start_time, t.end_time,
                t.updated_at AS slot_updated_at, COALESCE(t.start_time, s.event_date) AS starts
         FROM owned s JOIN ${SLOTS} t ON t.signup_id = s.id
         WHERE COALESCE(t.end_time, t.start_time, s.event_date) > $3
         UNION ALL
         SELECT s.*, NULL, NULL, NULL, NULL, NULL, NULL, s.event_date FROM owned s
         WHERE s.event_date > $3 AND NOT EXISTS (SELECT 1 FROM ${SLOTS} t WHERE t.signup_id = s.id)
       )
       SELECT id AS signup_id, slug, title, description, location, event_date, time_zone, updated_at, slot_id, slot_title, slot_description,
              start_time, end_time, slot_updated_at
       FROM feed ORDER BY starts, id, slot_id LIMIT $4`,
      [owner.organizationId, owner.livemode, since, limit],
    );
  }
}
