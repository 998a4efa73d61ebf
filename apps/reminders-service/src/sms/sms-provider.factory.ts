import { ConfigError } from '#libs/config';
import type { Logger } from '#libs/observability';
import type { RemindersConfig } from '../reminders.config.js';
import { LogSmsProvider } from './log-sms-provider.js';
import type { SmsProvider } from './sms-provider.js';
import { TwilioSmsProvider } from './twilio-sms-provider.js';

/** The provider SMS_PROVIDER names; twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (a ConfigError at boot otherwise). */
export function smsProviderFor(config: RemindersConfig, logger: Logger): SmsProvider {
  if (config.smsProvider === 'log') return new LogSmsProvider(logger);
  const { twilioAccountSid: accountSid, twilioAuthToken: authToken, twilioFrom: from } = config;
  if (!accountSid || !authToken || !from) {
    const missing = Object.entries({ TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from }).filter(
      ([, v]) => !v,
    );
    throw new ConfigError(missing.map(([name]) => `${name} is required when SMS_PROVIDER=twilio`));
  }
  return new TwilioSmsProvider({ apiBase: config.twilioApiBase, accountSid, authToken, from, timeoutMs: config.smsTimeoutMs });
}
