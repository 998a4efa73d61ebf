/** Control characters, line and paragraph separators, and the invisible marks that reorder or hide text. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu;

/**
 * Text for a header (a subject, a sender's name): one line, with no control or invisible
 * characters, spaces collapsed, and at most `max` characters (cut with an ellipsis), so no
 * title or name can break a header or fake another.
 */
export function headerText(text: string, max: number): string {
  const line = text.replace(UNSAFE, ' ').replace(/\s+/gu, ' ').trim();
  const chars = [...line];
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
