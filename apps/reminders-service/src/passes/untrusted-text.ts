/**
 * Text that others wrote, made fit for a reminder (docs/decisions.md, "Reminders"). A text goes
 * out from the platform's number, and phones turn web addresses, email addresses and phone
 * numbers in it into links: none may come from anyone but us. What reads as one is left out.
 */

/** Longest first name a text carries (longer ones are cut). */
const FIRST_NAME_MAX = 20;
/** Longest title a text carries (longer ones are cut, and end in "..."). */
const TITLE_MAX = 60;

/** Renders as nothing or turns text around (zero-width characters, bidi controls, soft hyphens): hides a link from a pattern. */
const INVISIBLE = /\p{Cf}/gu;
/** Line breaks, tabs and other control characters: a title stays on one line. */
const CONTROL = /\p{Cc}/gu;
/**
 * Dots that NFKC leaves and a browser or a reader still takes for one (the ideographic full stop
 * separates labels in IDNA, `evil。example`), and written-out ones: `[.]`, `(dot)`. Middle dots
 * stay: they join Catalan words and Japanese or Chinese names.
 */
const DOT_LOOKALIKES = /[\u3002\u2219\u22C5]|[[({]\s*(?:\.|dot)\s*[\])}]/giu;
/** 5 digits or more in a run, spaced or punctuated as numbers are (`+1 (900) 555-0123`, `88 888`): phone numbers and short codes. */
const DIGIT_RUN = /\+?\p{Nd}(?:[\s\-.()/\u2010-\u2015]*\p{Nd}){4,}/gu;
/** A word that is a link: a scheme, www., a host (`evil.example`, `x.co`, `xn--…`) or an IPv4 address. */
const LINK = new RegExp(
  [
    String.raw`[\p{L}\p{N}]\.(?:\p{L}{2,}|xn--)`,
    String.raw`^\W*www\d{0,3}\.`,
    String.raw`[\p{L}\p{N}+.-]:\/\/`,
    String.raw`^\W*(?:mailto|tel|sms|smsto|callto|javascript|data|intent|whatsapp|tg|skype|facetime):`,
    String.raw`\d{1,3}(?:\.\d{1,3}){3}`,
  ].join('|'),
  'iu',
);
/** A word that is an email address (or any `x@y`). */
const EMAIL = /[^\s@]@[^\s@]/u;

/** The words of `text` less every one that reads as a link, an email address or a phone number, on one line. */
function withoutContacts(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(CONTROL, ' ')
    .replace(DOT_LOOKALIKES, '.')
    .replace(DIGIT_RUN, ' ')
    .split(/\s+/u)
    .filter((word) => word !== '' && !LINK.test(word) && !EMAIL.test(word))
    .join(' ');
}

/** At most `max` characters (code points, never half a surrogate pair). */
function cut(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/** A word in letters only, with the apostrophes and hyphens of O'Neil and Jean-Luc inside it. */
function lettersOf(word: string): string {
  return word.replace(/[^\p{L}\p{M}'’-]/gu, '').replace(/^[^\p{L}]+|[^\p{L}\p{M}]+$/gu, '');
}

/**
 * The first name to greet a participant by: the first word of their name with a letter in it,
 * once links, email addresses and phone numbers are left out, in letters only. Undefined when no
 * letter is left.
 */
export function firstNameOf(name: string): string | undefined {
  const first = withoutContacts(name)
    .split(' ')
    .map(lettersOf)
    .find((word) => word !== '');
  return first === undefined ? undefined : cut(first, FIRST_NAME_MAX);
}

/**
 * The signup's title as a text names it: the organizer's words, less links, email addresses and
 * phone numbers like a name, on one line, cut at TITLE_MAX characters. Undefined when nothing is left.
 */
export function titleOf(title: string): string | undefined {
  const words = withoutContacts(title);
  if (words === '') return undefined;
  return Array.from(words).length > TITLE_MAX ? `${cut(words, TITLE_MAX - 3).trimEnd()}...` : words;
}
