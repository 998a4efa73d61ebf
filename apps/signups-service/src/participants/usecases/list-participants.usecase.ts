import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, isUuid, type Page } from '#libs/contracts';
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

/** The position a cursor points after; a cursor that does not name one is a 422 on `cursor`. */
export function positionOf(cursor: string): ParticipantPosition {
  const { createdAt, id } = decodeCursor(cursor, CURSOR_KEYS);
  const date = new Date(createdAt);
  if (!isUuid(id) || Number.isNaN(date.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return { createdAt: date, id: id.toLowerCase() };
}

/** The participants of an owned signup, newest first, one page at a time. */
@Injectable()
export class ListParticipantsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
  ) {}

  async execute({ owner, signupId, cursor, limit = DEFAULT_PAGE_SIZE }: ListParticipantsQuery): Promise<Page<Participant>> {
    const after = cursor === undefined ? undefined : positionOf(cursor);
    requireOwned(await this.signups.findById(signupId), owner);
    const rows = await this.participants.list(signupId, after, limit + 1);
    const data = rows.slice(0, limit);
    return { data, nextCursor: rows.length > limit ? cursorOf(data[data.length - 1]!) : null };
  }
}
