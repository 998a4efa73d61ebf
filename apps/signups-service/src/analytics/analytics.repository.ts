import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { ParticipantStats } from './analytics.js';

/** The aggregates analytics needs beyond the slots and items themselves. */
@Injectable()
export class AnalyticsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** How many participants the signup has and when the first and the last registered (one index range scan). */
  async participantStats(signupId: string): Promise<ParticipantStats> {
    const [row] = await rowsOf<{ count: number; first: Date | null; last: Date | null }>(
      this.dataSource.manager,
      `SELECT count(*)::integer AS count, min(created_at) AS first, max(created_at) AS last
       FROM "${SIGNUPS_SCHEMA}"."participants" WHERE signup_id = $1`,
      [signupId],
    );
    return row ?? { count: 0, first: null, last: null };
  }
}
