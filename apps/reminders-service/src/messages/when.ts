/**
 * Dates and times as an email states them, in the signup's time zone, named after each time
 * ("UTC", "EST", "GMT+2"), so a reader elsewhere knows which clock it is.
 */

/** The zone to state times in: the signup's, or UTC when it is no IANA zone this runtime knows. */
export function zoneOf(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** ICU's narrow and thin spaces (before AM/PM, around a range's dash) as plain ones, which every mail client shows. */
function plainSpaces(text: string): string {
  return text.replace(/[\u202F\u2009\u00A0]/g, ' ');
}

function format(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', { timeZone: zoneOf(timeZone), ...options });
}

/** "Saturday, December 5, 2026 at 5:00 PM UTC". */
export function dateTime(iso: string, timeZone: string): string {
  const parts = format(timeZone, { dateStyle: 'full' }).format(new Date(iso));
  return `${parts} at ${time(iso, timeZone)}`;
}

/** "5:00 PM UTC". */
export function time(iso: string, timeZone: string): string {
  return plainSpaces(format(timeZone, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso)));
}

/** "Sat, Dec 5" (for a subject). */
export function shortDate(iso: string, timeZone: string): string {
  return plainSpaces(format(timeZone, { weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(iso)));
}

/** "Sat, Dec 5, 5:00 – 7:00 PM UTC", or only the start when there is no end. */
export function range(startIso: string, endIso: string | null, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  const f = format(timeZone, options);
  const start = new Date(startIso);
  return plainSpaces(endIso === null ? f.format(start) : f.formatRange(start, new Date(endIso)));
}
