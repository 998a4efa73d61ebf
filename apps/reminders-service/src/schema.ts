export const REMINDERS_SCHEMA = 'reminders';
