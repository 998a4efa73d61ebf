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
 * signup carries no time zone), the public link, and the STOP line.
 */
export function reminderText(name: string, subject: ReminderSubject): string {
  const firstName = name.trim().split(/\s+/)[0] || 'there';
  return `Hi ${firstName}, a reminder: ${subject.title} is on ${WHEN.format(new Date(subject.eventDate))}. Details: ${subject.publicUrl} ${STOP_LINE}`;
}
