/**
 * The longest text each part of a calendar keeps, in characters (code points). Far above what the
 * API lets through (a signup title 200, a slot title 200, a location 500, descriptions 5000 and
 * 2000), so they only cut what no form would send: a calendar stays small enough for any client.
 */
export const TEXT_LIMITS = {
  /** The calendar's name (NAME, X-WR-CALNAME). */
  name: 255,
  /** An event's SUMMARY: a signup's title and a slot's. */
  summary: 500,
  location: 500,
  description: 10_000,
  /** A person's name (organizer, attendee). */
  person: 200,
  /** An email address (RFC 5321's 254, with room). */
  email: 320,
  /** The description in an add-to-calendar link: a link over a few kilobytes is refused by some browsers and servers. */
  linkDescription: 1_000,
} as const;

/** A UTF-16 surrogate that is not half of a pair. */
const LONE_SURROGATES = /\p{Cs}/gu;
/** Line breaks of every kind: CR LF, CR, NEL, the Unicode line and paragraph separators. */
const LINE_BREAKS = /\r\n|[\r\u0085\u2028\u2029]/g;
/** Control characters but tab and line feed: C0, DEL, C1. */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** `text` cut to `max` code points (an ellipsis marks a cut), never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * Text from people made safe to hand to the iCalendar writer: lone surrogates replaced, control
 * characters dropped, line breaks kept as LF (the writer escapes them as \n; it also escapes
 * commas, semicolons and backslashes, and folds long lines), trimmed and cut to `max`.
 */
export function cleanText(text: string, max: number): string {
  return cut(text.replace(LONE_SURROGATES, '\uFFFD').replace(LINE_BREAKS, '\n').replace(CONTROLS, '').trim(), max);
}

/** As cleanText, for a value on one line (a title, a place, a name): line breaks and tabs become spaces. */
export function cleanLine(text: string, max: number): string {
  return cut(
    text
      .replace(LONE_SURROGATES, '\uFFFD')
      .replace(LINE_BREAKS, '\n')
      .replace(/[\t\n]+/g, ' ')
      .replace(CONTROLS, '')
      .trim(),
    max,
  );
}
