import { fingerprintOf } from './idempotency.interceptor.js';

const request = (body: unknown, overrides: { method?: string; url?: string; headers?: Record<string, string> } = {}) => ({
  method: 'POST',
  url: '/api/v1/signups',
  body,
  ...overrides,
});

describe('fingerprintOf', () => {
  it('is the same for one JSON value however its keys are ordered', () => {
    expect(fingerprintOf(request({ title: 'A', slots: [{ capacity: 2, title: 'x' }] }))).toBe(
      fingerprintOf(request({ slots: [{ title: 'x', capacity: 2 }], title: 'A' })),
    );
  });

  it('differs for another value, another path, another query or another method', () => {
    const base = fingerprintOf(request({ title: 'A' }));
    expect(fingerprintOf(request({ title: 'B' }))).not.toBe(base);
    expect(fingerprintOf(request({ title: 'A', location: null }))).not.toBe(base);
    expect(fingerprintOf(request([{ title: 'A' }]))).not.toBe(base);
    expect(fingerprintOf(request({ title: 'A' }, { url: '/api/v1/signups?x=1' }))).not.toBe(base);
    expect(fingerprintOf(request({ title: 'A' }, { method: 'PATCH' }))).not.toBe(base);
  });

  it('treats an absent body as null', () => {
    expect(fingerprintOf(request(undefined, { method: 'DELETE' }))).toBe(fingerprintOf(request(null, { method: 'DELETE' })));
  });

  it('differs by If-Match, and is unchanged by its absence', () => {
    const patch = { method: 'PATCH', url: '/api/v1/signups/1' };
    const base = fingerprintOf(request({ title: 'A' }, patch));
    expect(fingerprintOf(request({ title: 'A' }, { ...patch, headers: {} }))).toBe(base);
    const tagged = fingerprintOf(request({ title: 'A' }, { ...patch, headers: { 'if-match': '"a"' } }));
    expect(tagged).not.toBe(base);
    expect(fingerprintOf(request({ title: 'A' }, { ...patch, headers: { 'if-match': '"b"' } }))).not.toBe(tagged);
  });
});
