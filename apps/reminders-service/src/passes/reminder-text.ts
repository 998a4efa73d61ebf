import { firstNameOf, titleOf } from './untrusted-text.js';

/** What a reminder says about its signup. */
export interface ReminderSubject {
  title: string;
  /** An ISO 8601 instant. */
  eventDate: string;
  publicUrl: string;
}

const WHEN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** The line every text ends with (carriers require it). */
export const STOP_LINE = 'Reply STOP to opt out.';

/**
 * One reminder: the participant's first name, the signup's title, its date and time (in UTC: a
 * signup carries no time zone), the public link, and the STOP line. The name and the title are
 * others' words: they come without links, email addresses or phone numbers (untrusted-text.ts),
 * so the only link a text carries is our public one.
 */
export function reminderText(name: string, subject: ReminderSubject): string {
  const greeting = firstNameOf(name) ?? 'there';
  const title = titleOf(subject.title) ?? 'your signup';
  return `Hi ${greeting}, a reminder: ${title} is on ${WHEN.format(new Date(subject.eventDate))}. Details: ${subject.publicUrl} ${STOP_LINE}`;
}
