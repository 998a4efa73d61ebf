import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { LineStats, ParticipantStats, RegistrationsOnDay } from './analytics.js';

/** The days of registrations analytics answers: a year and a day (a leap year's worth), the latest. */
export const REGISTRATION_DAYS_MAX = 366;

/** The aggregates analytics needs beyond the slots and items themselves. */
@Injectable()
export class AnalyticsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * The participants the signup counts (as participant_count does: not cancelled, nor waiting in
   * the signup's own line), when the first and the last of them registered, and how many attended,
   * did not, or are confirmed and not marked yet (one index range scan).
   */
  async participantStats(signupId: string): Promise<ParticipantStats> {
    const [row] = await rowsOf<ParticipantStats>(
      this.dataSource.manager,
      `SELECT count(*)::integer AS count, min(created_at) AS first, max(created_at) AS last,
         count(*) FILTER (WHERE status = 'attended')::integer AS attended, count(*) FILTER (WHERE status = 'no_show')::integer AS "noShow",
         count(*) FILTER (WHERE status = 'confirmed')::integer AS unmarked
       FROM "${SIGNUPS_SCHEMA}"."participants" p
       WHERE signup_id = $1 AND status <> 'cancelled'
         AND NOT EXISTS (SELECT 1 FROM "${SIGNUPS_SCHEMA}"."waitlist_entries" e
                         WHERE e.participant_id = p.id AND e.kind = 'signup' AND e.state = 'waiting')`,
      [signupId],
    );
    return row!;
  }

  /**
   * How many participants were created on each day in the zone, cancelled and waiting ones too: the
   * latest REGISTRATION_DAYS_MAX days that had any, oldest first.
   */
  registrationsByDay(signupId: string, timeZone: string): Promise<RegistrationsOnDay[]> {
    return rowsOf<RegistrationsOnDay>(
      this.dataSource.manager,
      `SELECT to_char(day, 'YYYY-MM-DD') AS date, count FROM (
         SELECT (created_at AT TIME ZONE $2)::date AS day, count(*)::integer AS count
         FROM "${SIGNUPS_SCHEMA}"."participants" WHERE signup_id = $1
         GROUP BY day ORDER BY day DESC LIMIT $3) latest
       ORDER BY day`,
      [signupId, timeZone, REGISTRATION_DAYS_MAX],
    );
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
