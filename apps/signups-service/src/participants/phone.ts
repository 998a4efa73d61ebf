import { parsePhoneNumberWithError } from 'libphonenumber-js';

/** A validated international phone number in E.164 form: "+1 (415) 555-0123" → "+14155550123". */
export function toE164(phone: string): string {
  return parsePhoneNumberWithError(phone).number;
}
