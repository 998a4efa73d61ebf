/**
 * Others' words (titles, names, descriptions, labels) made fit for an email. Nothing here knows
 * HTML or MIME: subjects and display names are plain one-line text (nodemailer encodes them), and
 * html() escapes whatever goes into the HTML part.
 */

/** Control characters (CR and LF among them), line and paragraph separators: a header or a line ends at none of them. */
const BREAKS = /[\p{Cc}\u2028\u2029]/gu;
/** Control characters but the line feed, which a description keeps. */
const BREAKS_BUT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/g;
/**
 * Bidi embeddings, overrides and isolates (they reorder what follows: a title could turn the
 * sentence around it), zero-width spaces, the byte order mark and soft hyphens. Marks (LRM, RLM)
 * and joiners (ZWJ in emoji, ZWNJ in Persian) stay.
 */
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\u200B\uFEFF\u00AD]/g;
/** Characters of an address in a display name: a name never looks like `"x" <y@z>`. */
const ADDRESS_SYNTAX = /["<>\\@]/g;
/** Half of a surrogate pair on its own: no character, and no encoding can carry it. */
const LONE_SURROGATE = /\p{Cs}/gu;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Text on one line: well formed, without control or invisible characters, whitespace collapsed. */
export function oneLine(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(INVISIBLE, '').replace(BREAKS, ' ').replace(/\s+/gu, ' ').trim();
}

/** At most `max` characters as people count them (never half an emoji), with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  // A character is one UTF-16 unit or more: text no longer than `max` units fits without counting.
  if (text.length <= max) return text;
  const parts = Array.from(graphemes.segment(text), (s) => s.segment);
  return parts.length <= max
    ? text
    : `${parts
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** Longest title a subject carries. */
export const SUBJECT_TITLE_MAX = 80;
/** Longest display name (a participant's in To, an organization's as the sender). */
export const DISPLAY_NAME_MAX = 64;

/** A title as a subject or a heading names it: one line, at most SUBJECT_TITLE_MAX characters; `fallback` when nothing is left. */
export function titleOf(title: string, fallback = 'your signup'): string {
  return cut(oneLine(title), SUBJECT_TITLE_MAX) || fallback;
}

/**
 * A name fit for an address header's display part (the From of every email, an invitation's
 * organizer): one line, without quotes, angle brackets, backslashes or @, so no name can pass for
 * an address (`PayPal <service@paypal.example>` before ours), at most DISPLAY_NAME_MAX characters;
 * empty when nothing is left.
 */
export function displayName(name: string): string {
  return cut(oneLine(name.replace(ADDRESS_SYNTAX, ' ')), DISPLAY_NAME_MAX);
}

/** Several lines of text (a description): line breaks kept (at most one empty line in a row), other controls and invisible characters gone. */
export function paragraphs(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(BREAKS_BUT_NEWLINE, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/gu, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: every character that means something in HTML escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
