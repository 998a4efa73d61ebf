import { ApiProperty } from '@nestjs/swagger';
import { ProblemError } from '#libs/problem';
import { QueryIntField, StringField } from './validation.js';

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
 * Opaque cursors: base64url JSON of the sort key of the last row of a page. A cursor that
 * does not decode to the expected shape is a 422 on `cursor`.
 */
export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<K extends string>(cursor: string, keys: readonly K[]): Record<K, string> {
  const invalid = () => ProblemError.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const record = parsed as Record<string, unknown>;
  for (const key of keys) if (typeof record[key] !== 'string') throw invalid();
  return record as Record<K, string>;
}

export class PageMetaDto {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor to get the next page; null on the last page.' })
  nextCursor!: string | null;
}
