import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIRMATION_TOKEN_PATTERN, randomBase62 } from '#libs/contracts';
import { SecretBox } from '#libs/crypto';
import { APP_CONFIG } from '#libs/runtime';
import type { SignupsServiceConfig } from '../signups-service.config.js';

const PREFIX = 'cnf_';
const LENGTH = 32;

/** A new token as it is handed out once (token) and stored: its hash, the lookup, and the token sealed. */
export interface IssuedToken {
  token: string;
  hash: string;
  sealed: string;
}

/** The stored form of a token; undefined for anything that is not a well-formed token. */
export function hashOf(token: unknown): string | undefined {
  if (typeof token !== 'string' || !CONFIRMATION_TOKEN_PATTERN.test(token)) return undefined;
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Confirmation tokens: `cnf_` and 32 base62 characters (190 bits). A token is looked up by its
 * SHA-256, which suits a random, high-entropy secret (as for API keys), and is also kept sealed
 * (AES-256-GCM under CONFIRMATION_TOKEN_KEY) so that the participant's emails can carry their
 * edit link: only this service can open it.
 */
@Injectable()
export class ConfirmationTokens {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: Pick<SignupsServiceConfig, 'confirmationTokenKey'>) {
    this.box = new SecretBox(config.confirmationTokenKey);
  }

  issue(): IssuedToken {
    const token = `${PREFIX}${randomBase62(LENGTH)}`;
    return { token, hash: hashOf(token)!, sealed: this.box.seal(token) };
  }

  /** The token a sealed value holds; undefined when it cannot be opened (sealed under another key, tampered with) or holds no token. */
  open(sealed: string): string | undefined {
    try {
      const token = this.box.open(sealed);
      return hashOf(token) && token;
    } catch {
      return undefined;
    }
  }
}
