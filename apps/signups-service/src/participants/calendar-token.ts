import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PARTICIPANT_CALENDAR_TOKEN_PATTERN } from '#libs/contracts';
import { deriveKey } from '#libs/crypto';
import { APP_CONFIG } from '#libs/runtime';
import type { SignupsServiceConfig } from '../signups-service.config.js';

const PREFIX = 'pcal_';
const ID_BYTES = 16;
/** 192 bits of HMAC-SHA256: no one guesses one. */
const MAC_BYTES = 24;
/** Names the key derived from CONFIRMATION_TOKEN_KEY for these tokens, apart from the one that seals confirmation tokens. */
const KEY_INFO = 'signups participant calendar token v1';

/**
 * Read-only calendar tokens of participants: `pcal_` and the base64url of the participant id (16
 * bytes) followed by an HMAC-SHA256 of it (24 bytes), under a key derived (HKDF) from
 * CONFIRMATION_TOKEN_KEY. Derived, not stored: every participant has one with no column or
 * migration, it is the same each time the page shows it, and no new secret is deployed. It
 * opens the participant's calendar and nothing else: the confirmation token cannot be computed
 * from it.
 */
@Injectable()
export class ParticipantCalendarTokens {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: Pick<SignupsServiceConfig, 'confirmationTokenKey'>) {
    this.key = deriveKey(config.confirmationTokenKey, KEY_INFO);
  }

  /** The token of a participant (a uuid). */
  tokenOf(participantId: string): string {
    const id = Buffer.from(participantId.replaceAll('-', ''), 'hex');
    return `${PREFIX}${Buffer.concat([id, this.mac(id)]).toString('base64url')}`;
  }

  /** The participant id a token was made for; undefined for a malformed token or one this key did not make (compared in constant time). */
  participantOf(token: unknown): string | undefined {
    if (typeof token !== 'string' || !PARTICIPANT_CALENDAR_TOKEN_PATTERN.test(token)) return undefined;
    const encoded = token.slice(PREFIX.length);
    const bytes = Buffer.from(encoded, 'base64url');
    // One spelling per token: base64url's last character has bits the decoding drops.
    if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString('base64url') !== encoded) return undefined;
    const id = bytes.subarray(0, ID_BYTES);
    if (!timingSafeEqual(bytes.subarray(ID_BYTES), this.mac(id))) return undefined;
    const hex = id.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private mac(id: Buffer): Buffer {
    return createHmac('sha256', this.key).update(id).digest().subarray(0, MAC_BYTES);
  }
}
