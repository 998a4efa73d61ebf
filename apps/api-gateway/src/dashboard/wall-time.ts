import { instantOf, wallClockOf } from '#libs/contracts';

/** A `datetime-local` input's value: `2027-06-01T18:00` (seconds allowed, as browsers may send them). */
const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** What a `datetime-local` input shows for an instant, on the clocks of the zone. */
export function localInputValue(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const clock = wallClockOf(new Date(iso), timeZone);
  const minutes = Math.floor(clock.time / 60_000);
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The instant (ISO 8601, UTC) a `datetime-local` value names on the clocks of the zone; undefined
 * for a value that is not one (the REST API then says what is wrong with the field).
 */
export function instantFromLocal(value: string, timeZone: string): string | undefined {
  const match = LOCAL_PATTERN.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > new Date(Date.UTC(year, month, 0)).getUTCDate() ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return undefined;
  }
  return instantOf({ year, month, day, time: ((hour * 60 + minute) * 60 + second) * 1000 }, timeZone).toISOString();
}
