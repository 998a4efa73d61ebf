import { sqlMigration } from '#libs/persistence';

/**
 * The confirmation token sealed (AES-256-GCM under CONFIRMATION_TOKEN_KEY) beside its hash, so
 * the participant's emails can carry their edit link. token_hash stays the lookup. Participants
 * registered before have none: their messages carry no edit link.
 */
export const SealedConfirmationTokens1796650000000 = sqlMigration('SealedConfirmationTokens1796650000000', {
  up: [`ALTER TABLE "signups"."participants" ADD COLUMN "token_sealed" text`],
  down: [`ALTER TABLE "signups"."participants" DROP COLUMN "token_sealed"`],
});
