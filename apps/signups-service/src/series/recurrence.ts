import { instantOf, type RecurrenceInput, type WallClock, wallClockOf } from '#libs/contracts';

const MS_PER_DAY = 86_400_000;
/** How many steps a rule may take to find its dates: monthly rules skip the months without their day (a 29th of February waits up to 8 years). */
const MAX_STEPS = 1000;

/** The reading `steps` days, weeks or months after `start`; undefined for a month without its day. */
function stepped(start: WallClock, frequency: RecurrenceInput['frequency'], steps: number): WallClock | undefined {
  if (frequency === 'monthly') {
    const months = start.month - 1 + steps;
    const year = start.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return start.day <= days ? { ...start, year, month } : undefined;
  }
  const date = new Date(Date.UTC(start.year, start.month - 1, start.day) + steps * (frequency === 'weekly' ? 7 : 1) * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), time: start.time };
}

/**
 * The dates a rule gives after `start` (not included), at start's wall-clock time in the zone
 * (18:00 there stays 18:00 across a change of daylight saving time), in order: `count` of them,
 * or every one until `until` (inclusive); never more than `limit`, so a caller asking for at most
 * n passes n + 1 to tell a rule that gives too many.
 */
export function occurrences(start: Date, timeZone: string, rule: RecurrenceInput, limit: number): Date[] {
  const first = wallClockOf(start, timeZone);
  const interval = rule.interval ?? 1;
  const until = rule.until === undefined ? undefined : new Date(rule.until).getTime();
  const wanted = Math.min(limit, rule.count ?? limit);
  const dates: Date[] = [];
  for (let step = 1; step <= MAX_STEPS && dates.length < wanted; step++) {
    const clock = stepped(first, rule.frequency, step * interval);
    if (!clock) continue;
    const date = instantOf(clock, timeZone);
    if (until !== undefined && date.getTime() > until) break;
    dates.push(date);
  }
  return dates;
}
