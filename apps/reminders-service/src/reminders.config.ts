import { getCountries } from 'libphonenumber-js/max';
import { type ConfigOf, env, publicUrlsSpec, tierLimitsField } from '#libs/config';
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
  /** The SMTP server email goes out through (smtp:// or smtps://, credentials in the URL); unset: every email is stored, none sent. */
  smtpUrl: env.optionalUrl('SMTP_URL'),
  /** The sender address of every email (required with SMTP_URL); the display name is the organization's. */
  mailFrom: env.optionalString('MAIL_FROM'),
  /** The platform's name: the sender's name of account mail (email verification, password reset), and how it names itself there. */
  platformName: env.string('PLATFORM_NAME', 'Signups'),
  /** DKIM signing, all three or none: the signing domain, the selector of its DNS record, the PEM private key. */
  dkimDomain: env.optionalString('DKIM_DOMAIN'),
  dkimSelector: env.optionalString('DKIM_SELECTOR'),
  dkimPrivateKey: env.optionalString('DKIM_PRIVATE_KEY'),
  /** An SMTP server that does not answer within this time has failed this attempt (it is tried again). */
  smtpTimeoutMs: env.int('SMTP_TIMEOUT_MS', 15_000, { min: 100, max: 120_000 }),
  /** Base64 of 32 bytes that seals stored emails (they carry personal links) with AES-256-GCM. */
  emailSecretKey: env.secret('EMAIL_SECRET_KEY'),
  /** The delays before each new attempt after a temporary SMTP failure (4xx, no answer); past the last, the email has failed. */
  emailRetrySchedule: env.durations('EMAIL_RETRY_SCHEDULE', '1m,5m,30m,2h,6h'),
  /** How often an idle replica looks for emails due. */
  emailPollMs: env.int('EMAIL_POLL_MS', 1000, { min: 10, max: 60_000 }),
  /** The mailbox subjects answer (a local run's /mailbox page); off, they are not_found: stored mail of every organization stays unread. */
  mailboxPage: env.bool('MAILBOX_PAGE', false),
  /** Emails (their bodies, sealed) are deleted this long after they were created, whatever became of them. */
  emailsRetentionHours: retentionHours('RETENTION_EMAILS_HOURS', 720),
  ...publicUrlsSpec,
  /** Sandbox texts (the sandbox outbox) are deleted this long after they were sent. */
  sandboxMessagesRetentionHours: retentionHours('RETENTION_SANDBOX_MESSAGES_HOURS', 168),
};

export type RemindersConfig = ConfigOf<typeof remindersSpec>;
