import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, DateTimeField, UuidField, decodeCursor, encodeCursor, pageOf, validateInput, type Page } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Owner } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant } from '../participant.js';
import { ParticipantsRepository, type ParticipantPosition } from '../participants.repository.js';

export interface ListParticipantsQuery {
  owner: Owner;
  signupId: string;
  cursor?: string;
  limit?: number;
}

const CURSOR_KEYS = ['createdAt', 'id'] as const;

export function cursorOf(participant: Participant): string {
  return encodeCursor({ createdAt: participant.createdAt.toISOString(), id: participant.id });
}

/** What a cursor must hold: the created_at (an RFC 3339 date-time with a 4-digit year) and the id (uuid) of a participant. */
class CursorDto {
  @DateTimeField({ required: true }) createdAt!: string;
  @UuidField({ required: true }) id!: string;
}

/**
 * The position a cursor points after; a cursor that does not name one is a 422 on `cursor`.
 * Its date is checked as the API checks dates (DateTimeField), so a date JavaScript parses but
 * Postgres cannot hold (year -271821, +275760) never reaches the database.
 */
export async function positionOf(cursor: string): Promise<ParticipantPosition> {
  const { createdAt, id } = decodeCursor(cursor, CURSOR_KEYS);
  const valid = await validateInput(CursorDto, { createdAt, id }).catch(() => undefined);
  const date = valid && new Date(valid.createdAt);
  if (!valid || !date || Number.isNaN(date.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return { createdAt: date, id: valid.id.toLowerCase() };
}

/** The participants of an owned signup, newest first, one page at a time. */
@Injectable()
export class ListParticipantsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
  ) {}

  async execute({ owner, signupId, cursor, limit = DEFAULT_PAGE_SIZE }: ListParticipantsQuery): Promise<Page<Participant>> {
    const after = cursor === undefined ? undefined : await positionOf(cursor);
    requireOwned(await this.signups.findById(signupId), owner);
    return pageOf(await this.participants.list(signupId, after, limit + 1), limit, cursorOf);
  }
}
