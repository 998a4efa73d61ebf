import { DEFAULT_TIME_ZONE, isEmailAddress, timeZoneOf } from '#libs/contracts';

/** The shortest password the signup page accepts (the admin API keeps its own minimum). */
export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 200;
const ORGANIZATION_NAME_MAX_LENGTH = 200;
/** Longer than any interaction path (`/oauth/authorize/` and a 21-character uid); longer ones are not looked at. */
const RETURN_PATH_MAX_LENGTH = 200;
const RETURN_PATH = /^\/oauth\/(?:authorize|device)\/[A-Za-z0-9_-]+\/interaction$/;

export interface SignupCommand {
  email: string;
  password: string;
  organizationName: string;
  /** The new organization's time zone. */
  timeZone: string;
}

/** What a form that sets a time zone says when the zone is not one (forged, or from an older list). */
export const TIME_ZONE_FORM_ERROR = 'Choose a time zone from the list, such as America/New_York or UTC.';

/** A time zone field of a form: the name to store, or undefined when it is not a zone. Empty means UTC. */
export function readTimeZone(value: string): string | undefined {
  return value === '' ? DEFAULT_TIME_ZONE : timeZoneOf(value);
}

export type SignupInput = { ok: true; command: SignupCommand } | { ok: false; error: string };

/** Why a new password (at signup or reset) is refused, or undefined when it will do: at least 10 characters, at most 200. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

/**
 * Validates the signup form: an e-mail address, a long enough password, an organization name and
 * its time zone (optional: UTC). The e-mail and zone checks are the API's (isEmailAddress,
 * timeZoneOf), which bound the length before any pattern runs.
 */
export function readSignup(email: string, password: string, organizationName: string, timeZoneField = ''): SignupInput {
  const trimmedEmail = email.trim();
  const trimmedName = organizationName.trim();
  if (!isEmailAddress(trimmedEmail)) return { ok: false, error: 'Enter a valid email address.' };
  const weak = passwordProblem(password);
  if (weak) return { ok: false, error: weak };
  if (!trimmedName) return { ok: false, error: 'Enter a name for your organization.' };
  if (trimmedName.length > ORGANIZATION_NAME_MAX_LENGTH) {
    return { ok: false, error: `Keep the organization name to ${ORGANIZATION_NAME_MAX_LENGTH} characters.` };
  }
  const timeZone = readTimeZone(timeZoneField);
  if (!timeZone) return { ok: false, error: TIME_ZONE_FORM_ERROR };
  return { ok: true, command: { email: trimmedEmail, password, organizationName: trimmedName, timeZone } };
}

/** Where a signup started from an OAuth login page returns: only an interaction's page (/oauth/authorize/<uid>/interaction, or device) on this origin. */
export function safeReturnPath(value: string): string | undefined {
  return value.length <= RETURN_PATH_MAX_LENGTH && RETURN_PATH.test(value) ? value : undefined;
}
