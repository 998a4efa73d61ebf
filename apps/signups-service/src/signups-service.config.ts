import { type ConfigOf, env, publicUrlsSpec, signupsPerDayField, tierLimitsField } from '#libs/config';

export const signupsServiceSpec = {
  ...publicUrlsSpec,
  signupsPerDay: signupsPerDayField(),
  tierLimits: tierLimitsField(),
  /** offline: the built-in parser; openai: any OpenAI-compatible chat-completions endpoint. */
  aiProvider: env.oneOf('AI_PROVIDER', ['offline', 'openai'], 'offline'),
  openaiBaseUrl: env.url('OPENAI_BASE_URL', 'https://api.openai.com/v1'),
  openaiApiKey: env.optionalString('OPENAI_API_KEY'),
  aiModel: env.string('AI_MODEL', 'gpt-4o-mini'),
  aiTimeoutMs: env.int('AI_TIMEOUT_MS', 20_000, { min: 100, max: 120_000 }),
  /** How often a replica looks for waitlist offers past their time (OfferExpiry). */
  offerSweepMs: env.int('OFFER_SWEEP_MS', 15_000, { min: 10, max: 3_600_000 }),
  /** Base64 of 32 bytes: seals each confirmation token at rest, so the participant's emails can carry their edit link. */
  confirmationTokenKey: env.secretKey('CONFIRMATION_TOKEN_KEY'),
};

export type SignupsServiceConfig = ConfigOf<typeof signupsServiceSpec>;
