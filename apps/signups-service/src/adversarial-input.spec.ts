import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, repeatedTo } from '#libs/testing';
import { draftFromDescription } from './drafts/offline/index.js';
import { hashOf } from './participants/confirmation-token.js';

/** The longest description POST /signups/from-description accepts. */
const DESCRIPTION_MAX_LENGTH = 10_000;
const REFERENCE = new Date('2026-11-22T10:00:00Z');

/** A description of the largest size, `unit` repeated between `prefix` and `suffix` (a letter, so trimming keeps the run). */
const description = (unit: string, prefix = '', suffix = 'x') => repeatedTo(DESCRIPTION_MAX_LENGTH, unit, prefix, suffix);

/**
 * chrono's own parsing of 10,000 characters that are nearly all dates or times: close to linear,
 * some 30 ms on a quiet machine (it compares each date found with the text before it), and bounded
 * by the description's maximum. A quadratic regression over such a text takes seconds.
 */
const DENSE_DATES_BUDGET_MS = 250;

/**
 * A whole draft runs some forty patterns and chrono over the description, so it gets three
 * single-pattern budgets: near 50 ms of CPU on a loaded 2-core machine for the largest
 * descriptions, while a super-linear pattern over them takes seconds.
 */
const DRAFT_BUDGET_MS = 3 * ADVERSARIAL_BUDGET_MS;

/**
 * Descriptions that made the drafter's patterns (or chrono's) try every start or every split of
 * a long run: each row names the rules it aims at.
 */
const DESCRIPTIONS: [string, string, number?][] = [
  ['spaces after a word (title, description, chrono)', description(' ', 'Potluck')],
  ['spaces after a time range (slot capacity, chrono)', description(' ', 'shifts 9-11')],
  ['spaces and dots (trailing punctuation of the title)', description(' .', 'Potluck')],
  ['spaces before "and" (title, list separators)', description(' ', 'Potluck', 'and x')],
  ['spaces before "&" (list separators)', description(' ', 'bring chips', '&dip')],
  ['spaces and hyphens after "bring" (item names)', description(' -', 'bring chips')],
  ['quotes after "bring" (item names)', description('"', 'bring a')],
  ['dots and hyphens (sentences, item names)', description('.-', 'a')],
  ['"@" before long places (location)', description('@A b c d e f g h i j ')],
  ['"location:" lines (labeled location)', description('location:\n')],
  ['leading filler words (title)', description('a ')],
  ['bullet lines (items, time ranges)', description('- a\n')],
  ['a digit run after a time range in a list (counted lists)', description('9', 'bring chips 9-11 ', 'y')],
  ['spaces after an ordinal day', description(' ', 'the 5th')],
  ['spaces after "we" (item triggers)', description(' ', 'we')],
  ['nothing but time ranges', description('9-11 '), DENSE_DATES_BUDGET_MS],
  ['nothing but month days', description('Jan 1 '), DENSE_DATES_BUDGET_MS],
];

/** Every pattern of the signups-service that reads what a caller sent, each fed the largest input that reaches it. */
const ROWS: [string, () => unknown, number][] = [
  ...DESCRIPTIONS.map(([label, text, budget = DRAFT_BUDGET_MS]): [string, () => unknown, number] => [
    `a draft from ${label}`,
    () => draftFromDescription(text, { referenceDate: REFERENCE }),
    budget,
  ]),
  ['a confirmation token of 512 characters (a path parameter)', () => hashOf(repeatedTo(512, 'a', 'cnf_')), ADVERSARIAL_BUDGET_MS],
];

describe('patterns over what callers send', () => {
  it.each(ROWS)('%s takes linear time', (_label, call, budget) => {
    expect(cpuMillisOf(call, { enough: budget })).toBeLessThan(budget);
  });
});
