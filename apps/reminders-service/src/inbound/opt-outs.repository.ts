import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { REMINDERS_SCHEMA } from '../schema.js';

const OPT_OUTS = `"${REMINDERS_SCHEMA}"."opt_outs"`;

/** Numbers that replied STOP: never texted until they reply START. */
@Injectable()
export class OptOutsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async optOut(phone: string): Promise<void> {
    await rowsOf(this.dataSource, `INSERT INTO ${OPT_OUTS} (phone) VALUES ($1) ON CONFLICT DO NOTHING`, [phone]);
  }

  async optIn(phone: string): Promise<void> {
    await rowsOf(this.dataSource, `DELETE FROM ${OPT_OUTS} WHERE phone = $1`, [phone]);
  }
}
