import { field, FIELD_MAX_LENGTH, fields, type Form } from './form.js';

describe('form fields', () => {
  it('reads a field, cutting a value longer than any field may be, and a repeated or missing one as empty', () => {
    const huge = 'x'.repeat(1024 * 1024);
    expect(field({ email: 'ann@example.test' }, 'email')).toBe('ann@example.test');
    expect(field({ email: huge }, 'email')).toHaveLength(FIELD_MAX_LENGTH);
    expect(field({ email: ['a', 'b'] }, 'email')).toBe('');
    expect(field(undefined, 'email')).toBe('');
  });

  it('reads every value of a repeatable field, each cut the same way', () => {
    expect(fields({ scope: 'signups:read' }, 'scope')).toEqual(['signups:read']);
    expect(fields({ scope: ['signups:read', 'y'.repeat(5000)] }, 'scope').map((v) => v.length)).toEqual([12, FIELD_MAX_LENGTH]);
    expect(fields({}, 'scope')).toEqual([]);
  });

  it('reads a value that is not valid Unicode (a lone surrogate from a JSON body) as empty', () => {
    const form = JSON.parse('{"email": "ann\\ud800@example.com", "organization": "Acme \\udc00"}') as Form;
    expect(field(form, 'email')).toBe('');
    expect(field(form, 'organization')).toBe('');
  });

  it('keeps the text values of a repeatable field and drops the rest', () => {
    const form = JSON.parse('{"scope": ["signups:read", "\\ud800", 3, "signups:write"]}') as Form;
    expect(fields(form, 'scope')).toEqual(['signups:read', 'signups:write']);
  });
});
