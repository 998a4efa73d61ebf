import { missingRequiredPhone } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { closureDetail, closureOf } from '../signups/registration-window.js';
import type { Owner, Signup } from '../signups/signup.js';

/**
 * Why a signup refuses a registration, decided on its row as the registration locked it
 * (undefined: admitted). In this order:
 * 1. not visible to the caller (absent; another mode than the caller's credential; a draft,
 *    except to its own organization): 404 not_found, identical to an absent id;
 * 2. not accepting (its own organization's draft, closed, event or signupCloseDate passed,
 *    maxParticipants reached): 400 bad_request, the detail says which;
 * 3. requiresPhone and no phone: 422 on `phone`.
 */
export function registrationRefusal(
  signup: Signup | undefined,
  caller: Owner | undefined,
  hasPhone: boolean,
  now: Date,
): ProblemError | undefined {
  const notFound = new ProblemError('not_found', 'No signup with this id.');
  if (!signup) return notFound;
  if (caller && caller.livemode !== signup.livemode) return notFound;
  if (signup.status === 'draft' && caller?.organizationId !== signup.organizationId) return notFound;
  const closure = closureOf(signup, now);
  if (closure) return new ProblemError('bad_request', closureDetail(closure, signup));
  if (missingRequiredPhone(signup, hasPhone)) return phoneRequired();
  return undefined;
}

/** A registration of a signup that requires a phone, made or changed without one: 422 on `phone`. */
export function phoneRequired(): ProblemError {
  return ProblemError.validation([{ path: 'phone', message: 'Required' }], 'This signup requires a phone number.');
}
