import { isPhoneNumber } from '#libs/contracts';
import { SmsNumberPolicy } from './sms-number-policy.js';

/** Numbers of each type, all valid for the registration (which stores them). */
const NUMBERS = {
  premiumRateUs: '+19002345678',
  premiumRateGb: '+449098765432',
  premiumRateFr: '+33891123456',
  sharedCostFr: '+33810123456',
  voipGb: '+445612345678',
  tollFreeUs: '+18002345678',
  tollFreeGb: '+448001234567',
  personalNumberGb: '+447012345678',
  pagerGb: '+447601234567',
  uanGb: '+443001234567',
  voicemailIt: '+3932012345678',
  fixedLineGb: '+441212345678',
  fixedLineDe: '+4930123456',
  satellite: '+882161234567',
  mobileGb: '+447400123456',
  mobileFr: '+33612345678',
  mobileDe: '+4915112345678',
  mobileJm: '+18762101234',
  fixedLineOrMobileUs: '+14155550123',
  fixedLineOrMobileCa: '+16135550123',
};

describe('SMS number policy', () => {
  const anyCountry = new SmsNumberPolicy();

  it('keeps to numbers the registration stores', () => {
    for (const phone of Object.values(NUMBERS)) expect(isPhoneNumber(phone)).toBe(true);
  });

  it('texts mobile numbers', () => {
    for (const phone of [NUMBERS.mobileGb, NUMBERS.mobileFr, NUMBERS.mobileDe, NUMBERS.mobileJm])
      expect(anyCountry.refusal(phone)).toBeUndefined();
  });

  it('texts numbers that may be fixed lines or mobiles (the United States and Canada)', () => {
    expect(anyCountry.refusal(NUMBERS.fixedLineOrMobileUs)).toBeUndefined();
    expect(anyCountry.refusal(NUMBERS.fixedLineOrMobileCa)).toBeUndefined();
  });

  it.each([
    ['a premium-rate', NUMBERS.premiumRateUs],
    ['a premium-rate', NUMBERS.premiumRateGb],
    ['a premium-rate', NUMBERS.premiumRateFr],
    ['a shared-cost', NUMBERS.sharedCostFr],
    ['a VoIP', NUMBERS.voipGb],
    ['a toll-free', NUMBERS.tollFreeUs],
    ['a toll-free', NUMBERS.tollFreeGb],
    ['a personal', NUMBERS.personalNumberGb],
    ['a pager', NUMBERS.pagerGb],
    ['a UAN', NUMBERS.uanGb],
    ['a voicemail', NUMBERS.voicemailIt],
    ['a fixed-line', NUMBERS.fixedLineGb],
    ['a fixed-line', NUMBERS.fixedLineDe],
    ['an international satellite', NUMBERS.satellite],
  ])('refuses %s number (%s) as not_mobile', (_kind, phone) => {
    expect(anyCountry.refusal(phone)).toBe('not_mobile');
  });

  it('refuses a number the full metadata does not know as not_mobile', () => {
    expect(anyCountry.refusal('+1')).toBe('not_mobile');
    expect(anyCountry.refusal('not a number')).toBe('not_mobile');
  });

  describe('with an allow-list of countries', () => {
    const northAmerica = new SmsNumberPolicy(['US', 'CA']);

    it('texts the mobiles of the countries listed', () => {
      expect(northAmerica.refusal(NUMBERS.fixedLineOrMobileUs)).toBeUndefined();
      expect(northAmerica.refusal(NUMBERS.fixedLineOrMobileCa)).toBeUndefined();
    });

    it('refuses a mobile of a country not listed as country_not_allowed', () => {
      expect(northAmerica.refusal(NUMBERS.mobileFr)).toBe('country_not_allowed');
      expect(northAmerica.refusal(NUMBERS.mobileGb)).toBe('country_not_allowed');
    });

    it('tells the countries that share a calling code apart (+1 876 is Jamaica)', () => {
      expect(northAmerica.refusal(NUMBERS.mobileJm)).toBe('country_not_allowed');
      expect(new SmsNumberPolicy(['JM']).refusal(NUMBERS.mobileJm)).toBeUndefined();
    });

    it('refuses a number of no country (international networks) as country_not_allowed', () => {
      expect(northAmerica.refusal(NUMBERS.satellite)).toBe('country_not_allowed');
    });

    it("still refuses a listed country's numbers that are not mobiles", () => {
      expect(northAmerica.refusal(NUMBERS.premiumRateUs)).toBe('not_mobile');
      expect(northAmerica.refusal(NUMBERS.tollFreeUs)).toBe('not_mobile');
    });
  });
});
