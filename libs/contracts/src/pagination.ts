import { ApiProperty } from '@nestjs/swagger';
import { ProblemError } from '#libs/problem';
import { isUuid } from './ids.js';
import { isDateTime, QueryIntField, StringField } from './validation.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export class PageQueryDto {
  @QueryIntField({ min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size, 1 to 100 (default 20).' })
  limit?: number;

  @StringField({ max: 512, description: 'The nextCursor of the previous page.' })
  cursor?: string;
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

/**
 * Opaque cursors: base64url JSON of the sort key of the last row of a page, a timestamp and the
 * row's uuid (e.g. `{"createdAt": "…", "id": "…"}`).
 */
export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** Where a cursor points: after the row with this timestamp (under its own key) and id. */
export type CursorPosition<K extends string> = { [key in K]: Date } & { id: string };

/**
 * The position a cursor names. Anything else is a 422 on `cursor`, before a query sees it: a
 * string that is not base64url JSON, JSON of another shape, a timestamp that is not an RFC 3339
 * date-time as the API checks dates (JavaScript parses some that Postgres cannot hold), or an
 * id that is not a uuid.
 */
export function decodeCursor<K extends string>(cursor: string, dateKey: K): CursorPosition<K> {
  const invalid = () => ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const { [dateKey]: date, id } = parsed as Record<string, unknown>;
  if (!isDateTime(date) || !isUuid(id)) throw invalid();
  const at = new Date(date);
  if (Number.isNaN(at.getTime())) throw invalid();
  return { [dateKey]: at, id: id.toLowerCase() } as CursorPosition<K>;
}

export class PageMetaDto {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor to get the next page; null on the last page.' })
  nextCursor!: string | null;
}
