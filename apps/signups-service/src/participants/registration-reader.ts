import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { constantTimeEqual } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { isPublic, type PublicSignup } from '../signups/signup.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import type { Contents } from '../signups/slot-item.js';
import { SlotsItemsRepository } from '../signups/slots-items.repository.js';
import { ParticipantCalendarTokens } from './calendar-token.js';
import { hashOf } from './confirmation-token.js';
import type { Participant } from './participant.js';
import { ParticipantsRepository, type StoredParticipant } from './participants.repository.js';

/** A participant's own registration with the signup it is for, as the confirmation-token flows answer it. */
export interface Registration {
  participant: Participant;
  signup: PublicSignup;
  contents: Contents;
}

export function registrationNotFound(): ProblemError {
  return new ProblemError('not_found', 'No registration for this confirmation token.');
}

/** Reads registrations by confirmation token, or by read-only calendar token. */
@Injectable()
export class RegistrationReader {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly calendarTokens: ParticipantCalendarTokens,
  ) {}

  /** The hash of a presented token; a malformed token is not found, like an unknown one. */
  tokenHash(token: unknown): string {
    const hash = hashOf(token);
    if (!hash) throw registrationNotFound();
    return hash;
  }

  /** The participant a token belongs to (looked up by hash, then compared in constant time). */
  async byToken(token: unknown): Promise<StoredParticipant> {
    const hash = this.tokenHash(token);
    const participant = await this.participants.findByTokenHash(hash);
    if (!participant || !constantTimeEqual(hash, participant.tokenHash)) throw registrationNotFound();
    return participant;
  }

  /** The participant a read-only calendar token was made for; a malformed, forged or unknown one is not found. */
  async byCalendarToken(token: unknown): Promise<StoredParticipant> {
    const id = this.calendarTokens.participantOf(token);
    const participant = id === undefined ? undefined : await this.participants.findById(id);
    if (!participant) throw new ProblemError('not_found', 'No calendar has this address.');
    return participant;
  }

  /**
   * The participant with the signup as it is now. Given the transaction of a change (db), as
   * that change leaves it: what commits is what the answer shows.
   */
  async withSignup(participant: Participant, db?: EntityManager): Promise<Registration> {
    const signup = await this.signups.findById(participant.signupId, db);
    if (!signup || !isPublic(signup)) throw registrationNotFound();
    return { participant, signup, contents: await this.contents.contentsOf(signup.id, db) };
  }
}
