import { createHash } from 'node:crypto';
import { ApiProperty } from '@nestjs/swagger';
import { ProblemError } from '#libs/problem';
import { isUuid } from './ids.js';
import { DateTimeField, isDateTime, QueryIntField, StringField } from './validation.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export class PageQueryDto {
  @QueryIntField({ min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size, 1 to 100 (default 20).' })
  limit?: number;

  @StringField({ max: 512, description: 'The nextCursor of the previous page.' })
  cursor?: string;
}

/** `updated_since` of the signup and participant lists (incremental sync; docs/decisions.md, "Event log and sync"). */
export function UpdatedSinceField(): PropertyDecorator {
  return DateTimeField({
    description:
      'Only the records changed at or after this RFC 3339 date-time (not in the future). Deleted records are not listed: read them from GET /events.',
  });
}

/** The instant of a validated `updated_since`; one in the future is a 422 on `updated_since` (it would list nothing, ever). */
export function updatedSinceOf(value: string | undefined, now = new Date()): Date | undefined {
  if (value === undefined) return undefined;
  const since = new Date(value);
  if (Number.isNaN(since.getTime())) throw ProblemError.validation([{ path: 'updated_since', message: 'Invalid datetime' }]);
  if (since > now) throw ProblemError.validation([{ path: 'updated_since', message: 'Must not be in the future' }]);
  return since;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A page from the rows of a query that asked for `limit + 1`: the first `limit`, and when there
 * was one more, the cursor of the last row shown.
 */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): Page<T> {
  const data = rows.slice(0, limit);
  return { data, nextCursor: rows.length > limit ? cursorOf(data[data.length - 1]!) : null };
}

/** The JSON text of a page whose items are JSON text already: what JSON.stringify makes of the page. */
export function pageText(items: readonly string[], nextCursor: string | null): string {
  return `{"data":[${items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/**
 * The list a cursor belongs to: the operation that listed it, the caller's organization and mode,
 * the parent of a nested list (a signup's participants, an endpoint's deliveries), and the
 * filters that define which rows it holds. A cursor of another list is refused.
 */
export interface CursorList {
  list: string;
  organizationId: string;
  livemode: boolean;
  parentId?: string;
  filters?: Record<string, string | number | boolean | null | undefined>;
}

/** The tag of a list a cursor carries (`l`): a digest of the list's identity, not a secret. */
function listTag({ list, organizationId, livemode, parentId, filters = {} }: CursorList): string {
  const defined = Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== null)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256')
    .update(JSON.stringify([list, organizationId, livemode, parentId ?? null, defined]))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Opaque cursors: base64url JSON of the sort key of the last row of a page, a timestamp and the
 * row's uuid (e.g. `{"createdAt": "…", "id": "…"}`), and the tag of the list it belongs to.
 */
export function encodeCursor(key: Record<string, string | number>, list: CursorList): string {
  return Buffer.from(JSON.stringify({ ...key, l: listTag(list) })).toString('base64url');
}

/** Where a cursor points: after the row with this timestamp (under its own key) and id. */
export type CursorPosition<K extends string> = { [key in K]: Date } & { id: string };

const invalidCursor = () => ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);

/** The 422 on `cursor` for a cursor passed with another list than the one it came from. */
export const cursorOfAnotherList = (): ProblemError =>
  ProblemError.validation([
    {
      path: 'cursor',
      message:
        'This cursor belongs to another list (another organization, mode, endpoint, parent or filters): pass it only with the request that returned it',
    },
  ]);

/**
 * The fields of a cursor of this list. A string that is not base64url JSON of an object is a 422
 * `Invalid cursor`; one of another list (organization, mode, endpoint, parent or filters) a 422
 * that says so.
 */
export function readCursor(cursor: string, list: CursorList): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidCursor();
  const fields = parsed as Record<string, unknown>;
  if (typeof fields.l !== 'string') throw invalidCursor();
  if (fields.l !== listTag(list)) throw cursorOfAnotherList();
  return fields;
}

/**
 * The position a cursor of this list names. Anything else is a 422 on `cursor`, before a query
 * sees it: a string that is not base64url JSON, JSON of another shape, a timestamp that is not an
 * RFC 3339 date-time as the API checks dates (JavaScript parses some that Postgres cannot hold),
 * an id that is not a uuid, or a cursor of another list (readCursor).
 */
export function decodeCursor<K extends string>(cursor: string, dateKey: K, list: CursorList): CursorPosition<K> {
  const { [dateKey]: date, id } = readCursor(cursor, list);
  if (!isDateTime(date) || !isUuid(id)) throw invalidCursor();
  const at = new Date(date);
  if (Number.isNaN(at.getTime())) throw invalidCursor();
  return { [dateKey]: at, id: id.toLowerCase() } as CursorPosition<K>;
}

export class PageMetaDto {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor to get the next page; null on the last page.' })
  nextCursor!: string | null;
}
