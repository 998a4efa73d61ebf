import { randomInt } from 'node:crypto';

const MAX_BASE_LENGTH = 48;
const SUFFIX_LENGTH = 6;
const SUFFIX_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The readable part of a slug: lowercase ASCII words joined by hyphens, at most 48 characters. */
export function slugBase(text: string, fallback: string): string {
  const base = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/-+$/, '');
  return base || fallback;
}

/** A public slug: the text's base plus a hyphen and six random base36 characters, e.g. `summer-potluck-k3x9q2`. */
export function newSlug(text: string, fallback: string): string {
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return `${slugBase(text, fallback)}-${suffix}`;
}
