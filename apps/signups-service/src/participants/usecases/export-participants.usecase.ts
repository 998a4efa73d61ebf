import { Injectable } from '@nestjs/common';
import { EXPORT_PAGE_BYTES, EXPORT_PAGE_SIZE, isUuid, type ParticipantExportPage } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Owner } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { exportedParticipant, exportTitlesOf } from '../participant-export.presenter.js';
import { type ExportPosition, ParticipantsRepository } from '../participants.repository.js';

export interface ExportParticipantsQuery {
  owner: Owner;
  signupId: string;
  cursor?: string;
  limit?: number;
}

/** A registration time to the microsecond, in UTC, as the export's positions carry it. */
const POSITION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function exportCursorOf(position: ExportPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position an export's cursor names; a 422 on `cursor` when it names none. */
export function exportPositionOf(cursor: string): ExportPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { createdAt, id } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof createdAt !== 'string' || !POSITION_TIME.test(createdAt) || Number.isNaN(Date.parse(createdAt)) || !isUuid(id)) {
    throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  }
  return { createdAt, id: id.toLowerCase() };
}

/**
 * One page of an owned signup's participants export: every status, oldest registration first
 * (keyset on created_at, id, the position as stored, so a page never repeats or skips one), at most
 * `limit` participants and about EXPORT_PAGE_BYTES of them, with the signup's zone and questions.
 * Each page is read on its own: a participant who registers during an export is in it when the
 * export has not yet passed it (it sorts last); one changed during it shows as the page read it.
 */
@Injectable()
export class ExportParticipantsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
  ) {}

  async execute({ owner, signupId, cursor, limit = EXPORT_PAGE_SIZE }: ExportParticipantsQuery): Promise<ParticipantExportPage> {
    const after = cursor === undefined ? undefined : exportPositionOf(cursor);
    const found = await this.signups.findWithContents(signupId);
    const signup = requireOwned(found?.signup, owner);
    const titles = exportTitlesOf(signup, found!.contents);
    const rows = await this.participants.listForExport(signupId, after, limit + 1);
    const data: ParticipantExportPage['data'] = [];
    let bytes = 0;
    let last: ExportPosition | undefined;
    for (const row of rows.slice(0, limit)) {
      const exported = exportedParticipant(row.participant, titles);
      const size = Buffer.byteLength(JSON.stringify(exported));
      if (data.length > 0 && bytes + size > EXPORT_PAGE_BYTES) break;
      data.push(exported);
      bytes += size;
      last = row.position;
    }
    return {
      signup: { id: signup.id, slug: signup.slug, title: signup.title, timeZone: signup.timeZone },
      questions: signup.questions.map((q) => ({ id: q.id, label: q.label })),
      data,
      nextCursor: data.length < rows.length && last ? exportCursorOf(last) : null,
    };
  }
}
