import { Injectable } from '@nestjs/common';
import { type CursorList, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, pageOf, type SignupStatus } from '#libs/contracts';
import type { Owner, Signup } from '../signup.js';
import { SignupsRepository } from '../signups.repository.js';

export interface ListSignupsQuery {
  owner: Owner;
  status?: SignupStatus;
  seriesId?: string;
  /** Only the signups changed at or after this instant. */
  updatedSince?: Date;
  cursor?: string;
  limit?: number;
}

/** The caller's own signups, newest event first, one page at a time. */
@Injectable()
export class ListSignupsUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, status, seriesId, updatedSince, cursor, limit = DEFAULT_PAGE_SIZE }: ListSignupsQuery): Promise<Page<Signup>> {
    const list: CursorList = { list: 'signups.list', ...owner, filters: { status, seriesId, updatedSince: updatedSince?.toISOString() } };
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'eventDate', list);
    return pageOf(await this.signups.list(owner, { status, seriesId, updatedSince, after, limit: limit + 1 }), limit, (last) =>
      encodeCursor({ eventDate: last.eventDate.toISOString(), id: last.id }, list),
    );
  }
}
