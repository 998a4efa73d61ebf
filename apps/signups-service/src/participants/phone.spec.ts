import { toE164 } from './phone.js';

describe('toE164', () => {
  it('normalizes international numbers written with spaces and punctuation', () => {
    expect(toE164('+1 (415) 555-0123')).toBe('+14155550123');
    expect(toE164('+44 7911 123456')).toBe('+447911123456');
    expect(toE164('+33612345678')).toBe('+33612345678');
  });
});
