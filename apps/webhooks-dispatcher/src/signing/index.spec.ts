import * as signing from './index.js';

describe('signing public API', () => {
  it('re-exports the signing functions and SecretBox', () => {
    expect(Object.keys(signing).sort()).toEqual(['SecretBox', 'generateSigningSecret', 'signatureHeader', 'webhookHeaders']);
  });
});
