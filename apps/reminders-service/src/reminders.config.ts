import { getCountries } from 'libphonenumber-js/max';
import { type ConfigOf, env, tierLimitsField } from '#libs/config';
import { retentionHours } from '#libs/runtime';

export const remindersSpec = {
  /** log: records each text in the log and sends nothing; twilio: Twilio's Messages API. */
  smsProvider: env.oneOf('SMS_PROVIDER', ['log', 'twilio'], 'log'),
  twilioApiBase: env.url('TWILIO_API_BASE', 'https://api.twilio.com'),
  twilioAccountSid: env.optionalString('TWILIO_ACCOUNT_SID'),
  twilioAuthToken: env.optionalString('TWILIO_AUTH_TOKEN'),
  /** The sender: an E.164 number, or a Messaging Service SID (MG…). */
  twilioFrom: env.optionalString('TWILIO_FROM'),
  /** The countries whose numbers get texts (ISO 3166 alpha-2); unset: every country. */
  smsAllowedCountries: env.optionalCountries('SMS_ALLOWED_COUNTRIES', getCountries()),
  /** A text with no answer within this time has failed (and may still arrive). */
  smsTimeoutMs: env.int('SMS_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
  /** How often a replica looks for signups due for their automatic pass. */
  reminderPollMs: env.int('REMINDER_POLL_MS', 60_000, { min: 10, max: 3_600_000 }),
  tierLimits: tierLimitsField(),
  /** Sandbox texts (the sandbox outbox) are deleted this long after they were sent. */
  sandboxMessagesRetentionHours: retentionHours('RETENTION_SANDBOX_MESSAGES_HOURS', 168),
};

export type RemindersConfig = ConfigOf<typeof remindersSpec>;
