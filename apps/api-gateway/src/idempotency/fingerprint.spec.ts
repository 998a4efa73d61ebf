import { fingerprintOf } from './idempotency.interceptor.js';

const request = (body: unknown, overrides: { method?: string; url?: string } = {}) => ({
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
});
