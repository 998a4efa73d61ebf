import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { LineStats, ParticipantStats } from './analytics.js';

/** The aggregates analytics needs beyond the slots and items themselves. */
@Injectable()
export class AnalyticsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * The participants the signup counts (as participant_count does: not cancelled, nor waiting in
   * the signup's own line), when the first and the last of them registered, and how many attended
   * or did not (one index range scan).
   */
  async participantStats(signupId: string): Promise<ParticipantStats> {
    const [row] = await rowsOf<ParticipantStats>(
      this.dataSource.manager,
      `SELECT count(*)::integer AS count, min(created_at) AS first, max(created_at) AS last,
         count(*) FILTER (WHERE status = 'attended')::integer AS attended, count(*) FILTER (WHERE status = 'no_show')::integer AS "noShow"
       FROM "${SIGNUPS_SCHEMA}"."participants" p
       WHERE signup_id = $1 AND status <> 'cancelled'
         AND NOT EXISTS (SELECT 1 FROM "${SIGNUPS_SCHEMA}"."waitlist_entries" e
                         WHERE e.participant_id = p.id AND e.kind = 'signup' AND e.state = 'waiting')`,
      [signupId],
    );
    return row!;
  }

  /** The entries of each line of the signup that has had any, by how they stand or ended. */
  lineStats(signupId: string): Promise<LineStats[]> {
    return rowsOf<LineStats>(
      this.dataSource.manager,
      `SELECT kind, target_id AS "targetId", count(*) FILTER (WHERE state IN ('waiting', 'offered'))::integer AS waiting,
         count(*) FILTER (WHERE state = 'promoted')::integer AS promoted, count(*) FILTER (WHERE state = 'expired')::integer AS expired
       FROM "${SIGNUPS_SCHEMA}"."waitlist_entries" WHERE signup_id = $1 GROUP BY kind, target_id`,
      [signupId],
    );
  }
}
