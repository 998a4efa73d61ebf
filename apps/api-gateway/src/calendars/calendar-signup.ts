import type { CalendarSignup } from '#libs/calendar';
import type { CalendarFeedSignup, PublicSignupView } from '#libs/contracts';
import { zoneOf } from './zone.js';

/** A signup as libs/calendar takes it: the view with its zone. */
export function calendarSignup(signup: PublicSignupView | CalendarFeedSignup): CalendarSignup {
  return { ...signup, timeZone: zoneOf(signup) };
}
