import { Injectable } from '@nestjs/common';
import { type CursorList, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, pageOf, type ParticipantStatus } from '#libs/contracts';
import type { Owner } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant } from '../participant.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { participantNotFound } from '../registration-lock.js';

export interface ListParticipantsQuery {
  owner: Owner;
  signupId: string;
  cursor?: string;
  limit?: number;
  /** Only this status; every status but cancelled when absent. */
  status?: ParticipantStatus;
  /** Only the participants changed at or after this instant. */
  updatedSince?: Date;
}

/**
 * The participants of an owned signup, newest first, one page at a time; by status, or all but the
 * cancelled. Or one of them, in any status, with the list's refusals (403 for another
 * organization's signup, 404 for one not seen), and 404 for an id not of this signup.
 */
@Injectable()
export class ListParticipantsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
  ) {}

  async execute({
    owner,
    signupId,
    cursor,
    limit = DEFAULT_PAGE_SIZE,
    status,
    updatedSince,
  }: ListParticipantsQuery): Promise<Page<Participant>> {
    const list: CursorList = {
      list: 'signups.participants.list',
      ...owner,
      parentId: signupId,
      filters: { status, updatedSince: updatedSince?.toISOString() },
    };
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'createdAt', list);
    requireOwned(await this.signups.findById(signupId), owner);
    return pageOf(await this.participants.list(signupId, { status, updatedSince }, after, limit + 1), limit, (last) =>
      encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }, list),
    );
  }

  async one({ owner, signupId, id }: { owner: Owner; signupId: string; id: string }): Promise<Participant> {
    requireOwned(await this.signups.findById(signupId), owner);
    const participant = await this.participants.findById(id);
    if (participant?.signupId !== signupId) throw participantNotFound();
    return participant;
  }
}
