/**
 * The IANA zone a signup's times are written in. Signups are getting a zone of their own
 * (SignupView.timeZone, always set) in a change of their own; until it is merged every signup is
 * UTC, and this is the one line to change then.
 */
export function zoneOf(signup: object): string {
  const zone = (signup as { timeZone?: unknown }).timeZone;
  return typeof zone === 'string' ? zone : 'UTC';
}
