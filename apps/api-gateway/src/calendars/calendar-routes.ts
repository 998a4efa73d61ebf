/** The calendar routes, outside the REST prefix beside the pages. */
export const CALENDAR_ROUTES = ['s/:slug/calendar.ics', 'calendars/:feed'];

/** Whether a path is one of the calendar routes: files for calendar clients, whose errors are problem+json, not pages. */
export function isCalendarPath(url: string | undefined): boolean {
  return /^\/(?:s\/[^/?#]*\/calendar\.ics|calendars\/[^/?#]*)(?:[?#]|$)/.test(url ?? '');
}
