import { Inject, Injectable } from '@nestjs/common';
import { type CursorList, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, pageOf, type SignupStatus } from '#libs/contracts';
import type { Owner, Signup } from '../signup.js';
import { PUBLIC_ORIGIN } from '../signup.presenter.js';
import { type ListedSignupJson, type ListFilter, type ListPosition, SignupsRepository } from '../signups.repository.js';

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
  constructor(
    private readonly signups: SignupsRepository,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  async execute(query: ListSignupsQuery): Promise<Page<Signup>> {
    return this.page(query, (filter) => this.signups.list(query.owner, filter));
  }

  /**
   * The same page, each signup's view as Postgres wrote it: the hot read. A view only JavaScript
   * can write is null (then execute's page is presented).
   */
  async json(query: ListSignupsQuery): Promise<Page<ListedSignupJson>> {
    return this.page(query, (filter) => this.signups.listJson(query.owner, filter, this.publicOrigin));
  }

  private async page<T extends ListPosition>(
    { owner, status, seriesId, updatedSince, cursor, limit = DEFAULT_PAGE_SIZE }: ListSignupsQuery,
    read: (filter: ListFilter) => Promise<T[]>,
  ): Promise<Page<T>> {
    const list: CursorList = { list: 'signups.list', ...owner, filters: { status, seriesId, updatedSince: updatedSince?.toISOString() } };
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'eventDate', list);
    return pageOf(await read({ status, seriesId, updatedSince, after, limit: limit + 1 }), limit, (last) =>
      encodeCursor({ eventDate: last.eventDate.toISOString(), id: last.id }, list),
    );
  }
}
