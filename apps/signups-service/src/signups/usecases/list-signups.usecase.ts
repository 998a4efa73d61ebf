import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, DateTimeField, UuidField, decodeCursor, encodeCursor, pageOf, validateInput, type Page, type SignupStatus } from '#libs/contracts';
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

/** What a cursor must hold: the event date (an RFC 3339 date-time with a 4-digit year) and the id (uuid) of a signup. */
class CursorDto {
  @DateTimeField({ required: true }) eventDate!: string;
  @UuidField({ required: true }) id!: string;
}

/**
 * The position a cursor points after; a cursor that does not name one is a 422 on `cursor`.
 * Its date is checked as the API checks dates (DateTimeField), so a date JavaScript parses but
 * Postgres cannot hold (year -271821, +275760) never reaches the database.
 */
export async function positionOf(cursor: string): Promise<ListPosition> {
  const { eventDate, id } = decodeCursor(cursor, CURSOR_KEYS);
  const valid = await validateInput(CursorDto, { eventDate, id }).catch(() => undefined);
  const date = valid && new Date(valid.eventDate);
  if (!valid || !date || Number.isNaN(date.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return { eventDate: date, id: valid.id.toLowerCase() };
}

/** The caller's own signups, newest event first, one page at a time. */
@Injectable()
export class ListSignupsUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, status, cursor, limit = DEFAULT_PAGE_SIZE }: ListSignupsQuery): Promise<Page<Signup>> {
    const after = cursor === undefined ? undefined : await positionOf(cursor);
    return pageOf(await this.signups.list(owner, { status, after, limit: limit + 1 }), limit, cursorOf);
  }
}
