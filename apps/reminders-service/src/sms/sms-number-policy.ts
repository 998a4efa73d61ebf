// The max metadata: the default (min) metadata cannot tell a number's type for many countries.
import { type NumberType, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { NotEligibleReason } from '#libs/contracts';

/**
 * Types a text reaches at the normal rate. FIXED_LINE_OR_MOBILE is where a country's plan does
 * not tell them apart (the United States and Canada). Everything else is refused: premium rate
 * and shared cost numbers are how SMS pumping is paid, and toll free, VoIP, personal numbers,
 * pagers, UAN, voicemail and fixed lines are no phone in anyone's pocket.
 */
const TEXTABLE: ReadonlySet<NumberType> = new Set<NumberType>(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * Which stored numbers a reminder may go to (docs/decisions.md, "Reminders"). The registration
 * stores any valid number; this decides only whether it is texted.
 */
export class SmsNumberPolicy {
  private readonly allowedCountries?: ReadonlySet<string>;

  /** `allowedCountries`: ISO 3166 alpha-2 codes (SMS_ALLOWED_COUNTRIES); undefined allows every country. */
  constructor(allowedCountries?: readonly string[]) {
    this.allowedCountries = allowedCountries && new Set(allowedCountries);
  }

  /** Why this E.164 number is not texted, or undefined when it is. */
  refusal(phone: string): NotEligibleReason | undefined {
    const number = parsePhoneNumberFromString(phone);
    if (this.allowedCountries && !(number?.country && this.allowedCountries.has(number.country))) return 'country_not_allowed';
    const type = number?.getType();
    return type && TEXTABLE.has(type) ? undefined : 'not_mobile';
  }
}
