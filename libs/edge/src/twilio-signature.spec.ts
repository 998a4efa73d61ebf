import { isTwilioSignatureValid, twilioSignature } from './twilio-signature.js';

/** The example of Twilio's security documentation. */
const TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675310', Digits: '1234', From: '+14158675310', To: '+18005551212' };
const SIGNATURE = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';

describe('Twilio request signatures', () => {
  it("computes the signature of Twilio's documented example", () => {
    expect(twilioSignature(TOKEN, URL, PARAMS)).toBe(SIGNATURE);
  });

  it('does not depend on the order of the parameters', () => {
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(twilioSignature(TOKEN, URL, reversed)).toBe(SIGNATURE);
  });

  it('accepts the right signature and refuses a changed parameter, URL, token or a missing signature', () => {
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, URL, PARAMS)).toBe(true);
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, URL, { ...PARAMS, Digits: '1235' })).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, 'https://mycompany.com/myapp.php', PARAMS)).toBe(false);
    expect(isTwilioSignatureValid('54321', SIGNATURE, URL, PARAMS)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, undefined, URL, PARAMS)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, 'short', URL, PARAMS)).toBe(false);
  });

  it('signs each value of a repeated parameter, in sorted order', () => {
    expect(twilioSignature(TOKEN, URL, { MediaUrl: ['b', 'a'] })).toBe(twilioSignature(TOKEN, URL, { MediaUrl: ['a', 'b'] }));
    expect(twilioSignature(TOKEN, URL, { MediaUrl: ['a', 'b'] })).not.toBe(twilioSignature(TOKEN, URL, { MediaUrl: 'a' }));
  });
});
