import * as signing from './index.js';

describe('signing public API', () => {
  it('re-exports the signing functions', () => {
    expect(Object.keys(signing).sort()).toEqual(['generateSigningSecret', 'signatureHeader', 'webhookHeaders']);
  });
});
