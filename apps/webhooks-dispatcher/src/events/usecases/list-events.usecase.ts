import { Inject, Injectable } from '@nestjs/common';
import {
  type CursorList,
  cursorOfAnotherList,
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
/** Seconds to wait before asking again after an event recorded but not settled yet. */
const UNSETTLED_RETRY_SECONDS = 1;
/** The largest transaction id (xid8, unsigned 64 bits) and order in it (bigint) a position can hold. */
const MAX_TX = 2n ** 64n - 1n;
const MAX_SEQ = 2n ** 63n - 1n;

/** A position part of a cursor: decimal text Postgres can hold in its column, or undefined. */
function decimalUpTo(value: unknown, max: bigint): string | undefined {
  return typeof value === 'string' && DECIMAL.test(value) && BigInt(value) <= max ? value : undefined;
}

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
    const { limit = DEFAULT_PAGE_SIZE, cursor, order } = query;
    const after = query.after?.toLowerCase();
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
    let anchor = after;
    if (cursor !== undefined) [direction, from, anchor] = this.decode(cursor, list, { after, order });
    else if (after !== undefined) {
      direction = 'asc';
      from = await this.positionAfter(owner, after);
    }
    // Oldest first, events right after an old position may be pruned already: the reader would miss them.
    // Newest first, paging back just ends where the log does.
    if (from && direction === 'asc') this.requireKept(from.createdAt, cursor === undefined ? 'after' : 'cursor');

    const rows = await this.events.list(owner, filter, direction, from, limit + 1);
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeCursor(
            {
              d: direction,
              tx: last.txId,
              seq: last.seq,
              at: last.createdAt.toISOString(),
              ...(anchor === undefined ? {} : { a: anchor }),
            },
            list,
          )
        : null;
    return { data: data.map(entryOf), nextCursor };
  }

  /**
   * A cursor's direction, position and the `after` of the listing it continues. One of another
   * shape, or a position Postgres cannot hold, is a 422 `Invalid cursor`; one of another list is a
   * 422 too (readCursor), and so are an `after` or `order` repeated from another listing than the
   * cursor's: the same ones are the same list (a pager that resends the first query with the cursor).
   */
  private decode(cursor: string, list: CursorList, repeated: { after?: string; order?: Direction }): [Direction, LogPosition, string?] {
    const { d, tx, seq, at, a } = readCursor(cursor, list);
    const txId = decimalUpTo(tx, MAX_TX);
    const position = decimalUpTo(seq, MAX_SEQ);
    if ((d !== 'asc' && d !== 'desc') || !txId || !position || !isDateTime(at) || (a !== undefined && typeof a !== 'string'))
      throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime())) throw ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
    if ((repeated.order !== undefined && repeated.order !== d) || (repeated.after !== undefined && repeated.after !== a))
      throw cursorOfAnotherList();
    return [d, { txId, seq: position, createdAt }, a];
  }

  /**
   * The position of an event of the owner's log. An event recorded but not settled yet (not
   * listed: a transaction still running may add events before it) is a 409 `conflict` with
   * Retry-After: reading after it could skip those. An id the log does not hold is expired when
   * it was made before the retention window (a UUID v7 tells when), and a 422 on `after`
   * otherwise: an event of another organization or mode, or no event at all.
   */
  private async positionAfter(owner: Owner, id: string): Promise<LogPosition> {
    const position = await this.events.positionOf(owner, id);
    if (position?.settled) return { txId: position.txId, seq: position.seq, createdAt: position.createdAt };
    if (position)
      throw new ProblemError(
        'conflict',
        'This event is not in the log yet (a transaction that began before it is still running): retry after the seconds in Retry-After.',
        { headers: { 'retry-after': String(UNSETTLED_RETRY_SECONDS) } },
      );
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
