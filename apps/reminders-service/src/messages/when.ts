/**
 * Dates and times as an email states them, in the signup's time zone, named after each time
 * ("UTC", "EST", "GMT+2"), so a reader elsewhere knows which clock it is.
 */

/**
 * How many zones and formatters are kept: far more than the runtime lists (about 600 zones, four
 * styles), so every real one is made once; past it a new one is made per call and not kept.
 */
const KEPT = 4096;
const zones = new Map<string, string>();
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone to state times in: the signup's, or UTC when it is no IANA zone this runtime knows. */
export function zoneOf(timeZone: string): string {
  let zone = zones.get(timeZone);
  if (zone === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      zone = timeZone;
    } catch {
      zone = 'UTC';
    }
    if (zones.size < KEPT) zones.set(timeZone, zone);
  }
  return zone;
}

/** ICU's narrow and thin spaces (before AM/PM, around a range's dash) as plain ones, which every mail client shows. */
function plainSpaces(text: string): string {
  return text.replace(/[\u202F\u2009\u00A0]/g, ' ');
}

const STYLES = {
  date: { dateStyle: 'full' },
  time: { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  shortDate: { weekday: 'short', month: 'short', day: 'numeric' },
  range: { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/**
 * The formatter of a style in a zone, made once: building an Intl.DateTimeFormat costs far more
 * than formatting with one, and every message states several times.
 */
function format(timeZone: string, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const zone = zoneOf(timeZone);
  const key = `${style} ${zone}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...STYLES[style] });
    if (formatters.size < KEPT) formatters.set(key, formatter);
  }
  return formatter;
}

/** "Saturday, December 5, 2026 at 5:00 PM UTC". */
export function dateTime(iso: string, timeZone: string): string {
  const parts = format(timeZone, 'date').format(new Date(iso));
  return `${parts} at ${time(iso, timeZone)}`;
}

/** "5:00 PM UTC". */
export function time(iso: string, timeZone: string): string {
  return plainSpaces(format(timeZone, 'time').format(new Date(iso)));
}

/** "Sat, Dec 5" (for a subject). */
export function shortDate(iso: string, timeZone: string): string {
  return plainSpaces(format(timeZone, 'shortDate').format(new Date(iso)));
}

/** "Sat, Dec 5, 5:00 – 7:00 PM UTC", or only the start when there is no end. */
export function range(startIso: string, endIso: string | null, timeZone: string): string {
  const f = format(timeZone, 'range');
  const start = new Date(startIso);
  return plainSpaces(endIso === null ? f.format(start) : f.formatRange(start, new Date(endIso)));
}
