import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, MAX_HEADER_BYTES, repeatedTo } from '#libs/testing';
import { parseAuthorization } from './credentials.js';
import { addressKey } from './limits/client-address.js';

/** Every pattern of the edges that reads what a caller sent, each fed the largest input that reaches it (a header). */
const ROWS: [string, () => unknown][] = [
  ['an Authorization header of 16 KiB', () => parseAuthorization(repeatedTo(MAX_HEADER_BYTES, '!', 'Bearer '))],
  [
    'an Authorization header of 16 KiB that is malformed',
    () => expect(() => parseAuthorization(repeatedTo(MAX_HEADER_BYTES, '!', 'Bearer ', ' '))).toThrow(),
  ],
  ['a client address of 16 KiB', () => addressKey(repeatedTo(MAX_HEADER_BYTES, '.1', '::ffff:1'))],
];

describe('patterns over what callers send', () => {
  it.each(ROWS)('%s takes linear time', (_label, call) => {
    expect(cpuMillisOf(call)).toBeLessThan(ADVERSARIAL_BUDGET_MS);
  });
});
