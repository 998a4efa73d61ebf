import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Bus } from '#libs/bus';
import {
  type PassChannel,
  type Principal,
  type ReminderChannelStatusView,
  type ReminderStatusView,
  SECONDS_PER_DAY,
  utcDay,
} from '#libs/contracts';
import { BUS, DATA_SOURCE } from '#libs/runtime';
import { DAILY_EMAIL, DAILY_SMS, type DailyCounts } from '../daily-counts.js';
import { PassesRepository } from './passes.repository.js';
import { ReminderPasses } from './reminder-passes.js';

const COUNTS: Record<PassChannel, DailyCounts> = { sms: DAILY_SMS, email: DAILY_EMAIL };

/**
 * A signup's reminders at a glance (GET /signups/{id}/reminders): for each channel, the organization's
 * ceiling of the UTC day by its tier, what its live signups used of it and what remains; and the
 * reminders of the signup so far. The signups-service says whether the principal owns the signup
 * (as for a pass); a sandbox signup's reminders use no ceiling.
 */
@Injectable()
export class ReminderStatusUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly passes: PassesRepository,
    private readonly pass: ReminderPasses,
  ) {}

  async execute(principal: Principal, signupId: string): Promise<ReminderStatusView> {
    const signup = await this.bus.request('signups.reminders.target', { principal, signupId });
    const { day } = utcDay();
    const resetsAt = new Date(Date.parse(`${day}T00:00:00.000Z`) + SECONDS_PER_DAY * 1000).toISOString();
    const channel = async (name: PassChannel): Promise<ReminderChannelStatusView> => {
      const allowance = this.pass.allowance(name);
      const ceiling = allowance.ceiling(principal.tier);
      const used = await COUNTS[name].read(this.dataSource, signup.organizationId, day);
      return {
        available: allowance.offered(principal.tier),
        ceiling,
        used,
        remaining: Math.max(0, ceiling - used),
        resetsAt,
        usesCeiling: signup.livemode,
      };
    };
    const [sms, email, reminded] = await Promise.all([channel('sms'), channel('email'), this.passes.remindedSoFar(signup.id)]);
    return {
      channels: { sms, email },
      reminded: { sms: reminded.sms, email: reminded.email },
      lastSentAt: reminded.lastSentAt?.toISOString() ?? null,
    };
  }
}
