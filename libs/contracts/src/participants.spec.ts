import { missingRequiredPhone } from './participants.js';

describe('missingRequiredPhone', () => {
  it('refuses a registration without a phone only when the signup requires one', () => {
    expect(missingRequiredPhone({ requiresPhone: true }, false)).toBe(true);
    expect(missingRequiredPhone({ requiresPhone: true }, true)).toBe(false);
    expect(missingRequiredPhone({ requiresPhone: false }, false)).toBe(false);
    expect(missingRequiredPhone({ requiresPhone: false }, true)).toBe(false);
  });
});
