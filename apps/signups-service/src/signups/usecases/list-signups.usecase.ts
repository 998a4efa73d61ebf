import { Injectable } from '@nestjs/common';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, pageOf, type SignupStatus } from '#libs/contracts';
import type { Owner, Signup } from '../signup.js';
import { SignupsRepository } from '../signups.repository.js';

export interface ListSignupsQuery {
  owner: Owner;
  status?: SignupStatus;
  seriesId?: string;
  cursor?: string;
  limit?: number;
}

export function cursorOf(signup: Signup): string {
  return encodeCursor({ eventDate: signup.eventDate.toISOString(), id: signup.id });
}

/** The caller's own signups, newest event first, one page at a time. */
@Injectable()
export class ListSignupsUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, status, seriesId, cursor, limit = DEFAULT_PAGE_SIZE }: ListSignupsQuery): Promise<Page<Signup>> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'eventDate');
    return pageOf(await this.signups.list(owner, { status, seriesId, after, limit: limit + 1 }), limit, cursorOf);
  }
}
