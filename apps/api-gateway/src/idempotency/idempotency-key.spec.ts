import { ProblemError } from '#libs/problem';
import { parseIdempotencyKey } from './idempotency-key.js';

function refusal(header: string | string[]): ProblemError {
  try {
    parseIdempotencyKey(header);
  } catch (err) {
    return err as ProblemError;
  }
  throw new Error(`accepted ${JSON.stringify(header)}`);
}

describe('parseIdempotencyKey', () => {
  it('has no key without the header', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it('takes 1 to 255 visible ASCII characters as they are', () => {
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('~'.repeat(255))).toBe('~'.repeat(255));
  });

  it('unwraps a quoted structured-field string, escapes included', () => {
    expect(parseIdempotencyKey('"order-42"')).toBe('order-42');
    expect(parseIdempotencyKey('"a\\"b\\\\c"')).toBe('a"b\\c');
  });

  it.each([
    ['empty', '', 'must not be empty'],
    ['an empty quoted string', '""', 'must not be empty'],
    ['256 characters', 'k'.repeat(256), 'at most 255 characters'],
    ['a space', 'two words', 'visible ASCII'],
    ['a quoted space', '"two words"', 'visible ASCII'],
    ['non-ASCII', 'clé', 'visible ASCII'],
  ])('refuses %s with 422 validation_failed naming the header', (_name, header, message) => {
    const problem = refusal(header);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'Idempotency-Key', message: expect.stringContaining(message) }]);
  });

  it('refuses the header sent twice', () => {
    expect(refusal(['a', 'b']).code).toBe('validation_failed');
  });
});
