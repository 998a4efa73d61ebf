import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, isUuid, type Page, type SignupStatus } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Owner, Signup } from '../signup.js';
import { SignupsRepository, type ListPosition } from '../signups.repository.js';

export interface ListSignupsQuery {
  owner: Owner;
  status?: SignupStatus;
  cursor?: string;
  limit?: number;
}

const CURSOR_KEYS = ['eventDate', 'id'] as const;

export function cursorOf(signup: Signup): string {
  return encodeCursor({ eventDate: signup.eventDate.toISOString(), id: signup.id });
}

/** The position a cursor points after; a cursor that does not name one is a 422 on `cursor`. */
export function positionOf(cursor: string): ListPosition {
  const { eventDate, id } = decodeCursor(cursor, CURSOR_KEYS);
  const date = new Date(eventDate);
  if (!isUuid(id) || Number.isNaN(date.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return { eventDate: date, id };
}

/** The caller's own signups, newest event first, one page at a time. */
@Injectable()
export class ListSignupsUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, status, cursor, limit = DEFAULT_PAGE_SIZE }: ListSignupsQuery): Promise<Page<Signup>> {
    const after = cursor === undefined ? undefined : positionOf(cursor);
    const rows = await this.signups.list(owner, { status, after, limit: limit + 1 });
    const data = rows.slice(0, limit);
    return { data, nextCursor: rows.length > limit ? cursorOf(data[data.length - 1]!) : null };
  }
}
