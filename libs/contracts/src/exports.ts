import type { ParticipantStatus, SelectionType } from './participants.js';
import { type AnswerValue, QueryIntField, StringField } from './validation.js';
import type { WaitlistState, WaitlistType } from './waitlist.js';

/** The most participants one page of an export carries (signups.participants.export). */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The most bytes of participants (as JSON) one page of an export carries: a page ends at the
 * participant that passes it, so a page stays well under the bus's 1 MiB message limit however
 * long the answers are (one participant's answers are bounded by ANSWER_LIMITS).
 */
export const EXPORT_PAGE_BYTES = 384 * 1024;

/** One page request of a participants export: the nextCursor of the previous page, and its size. */
export class ExportPageQueryDto {
  @QueryIntField({ min: 1, max: EXPORT_PAGE_SIZE, default: EXPORT_PAGE_SIZE, description: `Page size, 1 to ${EXPORT_PAGE_SIZE}.` })
  limit?: number;

  @StringField({ max: 512, description: 'The nextCursor of the previous page.' })
  cursor?: string;
}

export type ExportPageQuery = { limit?: number; cursor?: string };

/** A slot or item a participant holds, with its title and (a slot's) times as ISO instants. */
export interface ExportedSelection {
  type: SelectionType;
  id: string;
  title: string;
  quantity: number;
  startTime: string | null;
  endTime: string | null;
}

/** A line a participant is in: a slot's, an item's or the signup's own (title: the signup's). */
export interface ExportedWaitlistEntry {
  type: WaitlistType;
  targetId: string;
  title: string;
  quantity: number;
  state: WaitlistState;
  /** 1 for the next in line; null once offered. */
  position: number | null;
  joinedAt: string;
}

/** A participant as an export carries it: times as ISO instants (UTC), answers keyed by question id. */
export interface ExportedParticipant {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  status: ParticipantStatus;
  createdAt: string;
  selections: ExportedSelection[];
  waitlist: ExportedWaitlistEntry[];
  answers: Record<string, AnswerValue>;
  checkedInAt: string | null;
  noShowAt: string | null;
  hoursServed: number | null;
  remindedAt: string | null;
}

/** One page of a participants export, oldest registration first, with what the rows need: the signup's zone and questions. */
export interface ParticipantExportPage {
  signup: { id: string; slug: string; title: string; timeZone: string };
  /** The questions the signup asks now, in order. */
  questions: { id: string; label: string }[];
  data: ExportedParticipant[];
  nextCursor: string | null;
}
