import { Inject, Injectable } from '@nestjs/common';
import {
  type CursorList,
  DEFAULT_PAGE_SIZE,
  encodeCursor,
  type EventLogEntryView,
  type EventLogQuery,
  isDateTime,
  LOGGED_EVENT_TYPES,
  type Page,
  readCursor,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG, hoursToSeconds } from '#libs/runtime';
import type { Owner } from '../../endpoints/endpoint.js';
import type { WebhooksConfig } from '../../webhooks.config.js';
import { EventsRepository, type LogFilter, type LoggedEvent, type LogPosition } from '../events.repository.js';

type Direction = 'asc' | 'desc';

const LOGGED = new Set<string>(LOGGED_EVENT_TYPES);
const DECIMAL = /^\d{1,20}$/;

/** The types of a `type` query: known event types, comma-separated; anything else is a 422 on `type`. */
function typesOf(type: string | undefined): string[] | undefined {
  if (type === undefined) return undefined;
  const types = [...new Set(type.split(',').map((name) => name.trim()))];
  const unknown = types.find((name) => !LOGGED.has(name));
  if (unknown !== undefined)
    throw ProblemError.validation([
      { path: 'type', message: `Unknown event type ${JSON.stringify(unknown)}: must be one of ${LOGGED_EVENT_TYPES.join(', ')}` },
    ]);
  return types.sort();
}

/** A validated time filter; one in the future is a 422 on it, as `updated_since` is (no event happened there yet). */
function pastTimeOf(value: string | undefined, path: 'created_gte' | 'created_lt'): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || at.getTime() > Date.now())
    throw ProblemError.validation([{ path, message: Number.isNaN(at.getTime()) ? 'Invalid datetime' : 'Must not be in the future' }]);
  return at;
}

/** The time a UUID v7 was made (its first 48 bits, Unix milliseconds); undefined for another version. */
function timeOfV7(id: string): Date | undefined {
  const hex = id.replaceAll('-', '');
  return hex[12] === '7' ? new Date(Number.parseInt(hex.slice(0, 12), 16)) : undefined;
}

/** The entry of a recorded event: its id, then the webhook body as delivered. */
function entryOf(event: LoggedEvent): EventLogEntryView {
  return { id: event.id, ...(JSON.parse(event.payload) as Omit<EventLogEntryView, 'id'>) };
}

/**
 * The organization's event log of the caller's mode (docs/decisions.md, "Event log and sync"):
 * newest first, or oldest first after an event id; a cursor carries its direction and position,
 * bound to the organization, mode and filters. Oldest first, a position older than the retention
 * window is expired (410 cursor_expired), whether or not its row is pruned yet.
 */
@Injectable()
export class ListEventsUseCase {
  constructor(
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async execute(owner: Owner, query: EventLogQuery): Promise<Page<EventLogEntryView>> {
    const { limit = DEFAULT_PAGE_SIZE, cursor, after, order } = query;
    if (cursor !== undefined && after !== undefined)
      throw ProblemError.validation([{ path: 'after', message: 'Pass after or cursor, not both: a cursor carries its own position' }]);
    if (cursor !== undefined && order !== undefined)
      throw ProblemError.validation([{ path: 'order', message: 'Pass order or cursor, not both: a cursor carries its own direction' }]);
    if (after !== undefined && order === 'desc')
      throw ProblemError.validation([
        { path: 'order', message: 'after lists the events after it, oldest first: order must be asc or absent' },
      ]);
    const createdGte = pastTimeOf(query.created_gte, 'created_gte');
    const createdLt = pastTimeOf(query.created_lt, 'created_lt');
    const filter: LogFilter = { types: typesOf(query.type), createdGte, createdLt };
    const list: CursorList = {
      list: 'webhooks.events.list',
      ...owner,
      filters: { type: filter.types?.join(','), createdGte: createdGte?.toISOString(), createdLt: createdLt?.toISOString() },
    };

    let direction: Direction = order ?? 'desc';
    let from: LogPosition | undefined;
    if (cursor !== undefined) [direction, from] = this.decode(cursor, list);
    else if (after !== undefined) {
      direction = 'asc';
      from = await this.positionAfter(owner, after.toLowerCase());
    }
    // Oldest first, events right after an old position may be pruned already: the reader would miss them.
    // Newest first, paging back just ends where the log does.
    if (from && direction === 'asc') this.requireKept(from.createdAt, cursor === undefined ? 'after' : 'cursor');

    const rows = await this.events.list(owner, filter, direction, from, limit + 1);
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeCursor({ d: direction, tx: last.txId, seq: last.seq, at: last.createdAt.toISOString() }, list)
        : null;
    return { data: data.map(entryOf), nextCursor };
  }

  /** A cursor's direction and position; one of another shape is a 422 `Invalid cursor`, one of another list a 422 too (readCursor). */
  private decode(cursor: string, list: CursorList): [Direction, LogPosition] {
    const { d, tx, seq, at } = readCursor(cursor, list);
    if (
      (d !== 'asc' && d !== 'desc') ||
      typeof tx !== 'string' ||
      !DECIMAL.test(tx) ||
      typeof seq !== 'string' ||
      !DECIMAL.test(seq) ||
      !isDateTime(at)
    )
      throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
    return [d, { txId: tx, seq, createdAt }];
  }

  /**
   * The position of an event of the owner's log. An id the log does not hold is expired when it
   * was made before the retention window (a UUID v7 tells when), and a 422 on `after` otherwise:
   * an event of another organization or mode, or no event at all.
   */
  private async positionAfter(owner: Owner, id: string): Promise<LogPosition> {
    const position = await this.events.positionOf(owner, id);
    if (position) return position;
    const madeAt = timeOfV7(id);
    if (madeAt) this.requireKept(madeAt, 'after');
    throw ProblemError.validation([
      { path: 'after', message: `No event with this id in this organization's ${owner.livemode ? 'live' : 'sandbox'} event log` },
    ]);
  }

  private requireKept(at: Date, path: 'after' | 'cursor'): void {
    const keptFrom = Date.now() - hoursToSeconds(this.config.eventLogRetentionHours) * 1000;
    if (at.getTime() < keptFrom)
      throw new ProblemError(
        'cursor_expired',
        `This ${path === 'after' ? 'event' : 'cursor'} is older than the event log keeps (${this.config.eventLogRetentionHours} hours): ` +
          'list the resources again, then read the log from its newest event.',
      );
  }
}
