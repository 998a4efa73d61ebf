/**
 * Instants as people read them, in a time zone: the one formatter of the pages, texts, emails
 * and invites. English (en-US) like the rest of the product, with the zone's short name, e.g.
 * `Sat, Dec 5, 2026, 5:00 PM EST` and `Sat, Dec 5, 2026, 5:00 – 7:00 PM EST`. The text holds
 * plain spaces only (Intl puts narrow and thin ones in some forms), so an SMS or a mail header
 * carries it as it is.
 */

/** An instant: a Date or an ISO 8601 string with a zone or offset. */
export type Instant = Date | string;

interface Formatters {
  /** `Sat, Dec 5, 2026` */
  date: Intl.DateTimeFormat;
  /** `5:00 PM EST`, in parts */
  time: Intl.DateTimeFormat;
  /** `GMT-05:00`: tells two offsets apart where the short names are alike */
  offset: Intl.DateTimeFormat;
}

/** Past this many zones the cache starts again (zones are a few hundred; names in other cases would add more). */
const CACHE_LIMIT = 1000;
const cache = new Map<string, Formatters>();

/** The zone's formatters, made once: making one costs far more than using it. Throws RangeError for a zone Intl does not know. */
function formattersOf(timeZone: string): Formatters {
  let formatters = cache.get(timeZone);
  if (!formatters) {
    formatters = {
      date: new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }),
      time: new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
      offset: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
    };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(timeZone, formatters);
  }
  return formatters;
}

/** One instant, taken apart: its day, clock time, AM or PM, the zone's short name and its offset then. */
interface Reading {
  date: string;
  clock: string;
  period: string;
  zone: string;
  offset: string;
}

function toDate(instant: Instant): Date {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not an instant: ${String(instant)}`);
  return date;
}

function read(instant: Instant, timeZone: string): Reading {
  const { date, time, offset } = formattersOf(timeZone);
  const at = toDate(instant);
  const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const clockParts = time.formatToParts(at);
  return {
    date: date.format(at),
    clock: `${part(clockParts, 'hour')}:${part(clockParts, 'minute')}`,
    period: part(clockParts, 'dayPeriod'),
    zone: part(clockParts, 'timeZoneName'),
    offset: part(offset.formatToParts(at), 'timeZoneName'),
  };
}

const clockOf = (r: Reading) => `${r.clock} ${r.period}`;
const full = (r: Reading) => `${r.date}, ${clockOf(r)} ${r.zone}`;

/** `Sat, Dec 5, 2026, 5:00 PM EST`: the instant's day and time in the zone, with the zone's short name (`GMT+5:30` where it has none in English). */
export function formatDateTime(instant: Instant, timeZone: string): string {
  return full(read(instant, timeZone));
}

/**
 * A span of time in the zone, such as a slot:
 * - within a day: `Sat, Dec 5, 2026, 5:00 – 7:00 PM EST` (`11:00 AM – 1:00 PM` across noon);
 * - across a change of offset (daylight saving time), each end with its own zone name:
 *   `Sun, Nov 1, 2026, 1:00 AM EDT – 1:30 AM EST`;
 * - across days, each end whole: `Sat, Dec 5, 2026, 11:00 PM EST – Sun, Dec 6, 2026, 1:00 AM EST`.
 * - an empty span is its one time: `Sat, Dec 5, 2026, 5:00 PM EST`.
 * With `withDate: false` a span within a day leaves its date out (`5:00 – 7:00 PM EST`), for where
 * the day is already said; a span across days keeps its dates.
 */
export function formatTimeRange(start: Instant, end: Instant, timeZone: string, options: { withDate?: boolean } = {}): string {
  const from = read(start, timeZone);
  const to = read(end, timeZone);
  if (from.date !== to.date) return `${full(from)} – ${full(to)}`;
  const day = options.withDate === false ? '' : `${from.date}, `;
  if (from.offset !== to.offset || from.zone !== to.zone) return `${day}${clockOf(from)} ${from.zone} – ${clockOf(to)} ${to.zone}`;
  if (clockOf(from) === clockOf(to)) return `${day}${clockOf(from)} ${from.zone}`;
  const first = from.period === to.period ? from.clock : clockOf(from);
  return `${day}${first} – ${clockOf(to)} ${to.zone}`;
}

const clockReaders = new Map<string, Intl.DateTimeFormat>();

/**
 * The offset of a zone from UTC at an instant (milliseconds since the epoch), in milliseconds,
 * east positive: what its clocks show minus UTC, to the second.
 */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  let reader = clockReaders.get(timeZone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockReaders.set(timeZone, reader);
  }
  const parts = Object.fromEntries(reader.formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]));
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const MS_PER_DAY = 86_400_000;

/** A wall-clock reading: what a clock in a time zone shows at an instant. */
export interface WallClock {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  /** Milliseconds since the day's midnight on that clock. */
  time: number;
}

/** What a clock in the zone shows at the instant. */
export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const local = new Date(instant.getTime() + zoneOffsetMs(instant.getTime(), timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    time: local.getTime() - Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()),
  };
}

/**
 * The instant a clock in the zone shows this reading. A reading the clock skips (spring forward)
 * is read with the offset before the change, so it lands the length of the gap later; a reading
 * the clock shows twice (fall back) is its first.
 */
export function instantOf(clock: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day) + clock.time;
  const before = zoneOffsetMs(asUtc - MS_PER_DAY, timeZone);
  const after = zoneOffsetMs(asUtc + MS_PER_DAY, timeZone);
  const candidates = [asUtc - before, asUtc - after].filter((instant) => asUtc - zoneOffsetMs(instant, timeZone) === instant);
  return new Date(candidates.length > 0 ? Math.min(...candidates) : asUtc - before);
}
