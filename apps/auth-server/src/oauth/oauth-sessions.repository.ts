import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { affectedBy } from '#libs/persistence';

/**
 * oidc-provider's browser sessions (model Session in auth.oauth_store, keyed by the SHA-256 of
 * their `_session` cookie) and the sign-ins still under way (Interaction), found by account.
 */
@Injectable()
export class OAuthSessionsRepository {
  /**
   * Ends every OAuth provider session of the account in `db`'s transaction: its `_session` cookies
   * find nothing from now on, so the consent pages ask to sign in again; a sign-in or consent under
   * way for it is dropped too. Grants (connected apps) are not touched.
   */
  async endAllOf(db: EntityManager, accountId: string): Promise<void> {
    await affectedBy(
      db,
      `DELETE FROM "auth"."oauth_store"
       WHERE ("model" = 'Session' AND "payload" ->> 'accountId' = $1)
          OR ("model" = 'Interaction' AND ("payload" -> 'session' ->> 'accountId' = $1 OR "payload" -> 'result' -> 'login' ->> 'accountId' = $1))`,
      [accountId],
    );
  }
}
