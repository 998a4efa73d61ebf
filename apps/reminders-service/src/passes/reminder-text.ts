import { formatDateTime } from '#libs/contracts';
import { firstNameOf, titleOf } from './untrusted-text.js';

/** What a reminder says about its signup. */
export interface ReminderSubject {
  title: string;
  /** An ISO 8601 instant. */
  eventDate: string;
  /** The signup's IANA time zone, which the date and time are said in. */
  timeZone: string;
  publicUrl: string;
}

/** The line every text ends with (carriers require it). */
export const STOP_LINE = 'Reply STOP to opt out.';

/**
 * One reminder: the participant's first name, the signup's title, its date and time in the
 * signup's zone with the zone's name (`Sat, Dec 5, 2026, 5:00 PM EST`), the public link, and the
 * STOP line. The name and the title are others' words: they come without links, email addresses
 * or phone numbers (untrusted-text.ts), so the only link a text carries is our public one.
 */
export function reminderText(name: string, subject: ReminderSubject): string {
  const greeting = firstNameOf(name) ?? 'there';
  const title = titleOf(subject.title) ?? 'your signup';
  return `Hi ${greeting}, a reminder: ${title} is on ${formatDateTime(subject.eventDate, subject.timeZone)}. Details: ${subject.publicUrl} ${STOP_LINE}`;
}
