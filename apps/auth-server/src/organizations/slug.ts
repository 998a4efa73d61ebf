import { randomInt } from 'node:crypto';

const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SUFFIX_LENGTH = 6;
const MAX_BASE_LENGTH = 40;

/** The readable part of a slug: lowercase ASCII words joined by hyphens ("org" when nothing is left). */
export function slugBase(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/^-+|-+$/g, '');
  return base || 'org';
}

/** A slug for a new organization: its name plus a short random suffix, e.g. "acme-choir-k3x9q2". */
export function newSlug(name: string): string {
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return `${slugBase(name)}-${suffix}`;
}
