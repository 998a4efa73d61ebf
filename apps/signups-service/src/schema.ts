/** The Postgres schema this service owns. */
export const SIGNUPS_SCHEMA = 'signups';
