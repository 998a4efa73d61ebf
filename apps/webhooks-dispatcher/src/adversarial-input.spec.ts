import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, MAX_HEADER_BYTES, repeatedTo } from '#libs/testing';
import { checkUrlForm } from './targets/target-policy.js';
import { parseRetryAfter } from './targets/webhook-sender.js';

/** The longest webhook url the API accepts. */
const URL_MAX_LENGTH = 2048;

/** Every pattern of the dispatcher that reads what a customer or a receiver sent, each fed the largest input that reaches it. */
const ROWS: [string, () => unknown][] = [
  [
    'a webhook url whose host is 2048 characters of dots',
    () => checkUrlForm(repeatedTo(URL_MAX_LENGTH, '.', 'https://a', 'a/'), { allowPrivate: false, requireHttps: true }),
  ],
  ['a receiver Retry-After of 16 KiB', () => parseRetryAfter(repeatedTo(MAX_HEADER_BYTES, '9', 'Mon', 'x'))],
];

describe('patterns over what customers and receivers send', () => {
  it.each(ROWS)('%s takes linear time', (_label, call) => {
    expect(cpuMillisOf(call)).toBeLessThan(ADVERSARIAL_BUDGET_MS);
  });
});
