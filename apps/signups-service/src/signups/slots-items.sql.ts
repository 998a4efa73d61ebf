import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Contents, Kind, TargetOf } from './slot-item.js';

/**
 * How slots and items are stored, and the SQL that reads or takes them inside another
 * statement: the signup read in one statement (SignupsRepository.findWithContents) and the
 * registration in one statement (ParticipantsRepository.register) share it with
 * SlotsItemsRepository, so no repository reaches into another.
 */

interface SlotRow {
  id: string;
  signup_id: string;
  title: string;
  description: string | null;
  start_time: Date | null;
  end_time: Date | null;
  capacity: number;
  taken: number;
  created_at: Date;
  updated_at: Date;
}

interface ItemRow {
  id: string;
  signup_id: string;
  name: string;
  notes: string | null;
  quantity_needed: number;
  quantity_claimed: number;
  created_at: Date;
  updated_at: Date;
}

/** How each kind is stored: its table, its limit and count columns, its row mapping. */
interface KindTable<K extends Kind> {
  table: string;
  columns: string;
  total: string;
  used: string;
  /** Its timestamp columns, which JSON carries as text. */
  dates: string[];
  fromRow(row: Record<string, unknown>): TargetOf<K>;
}

export const TABLES: { [K in Kind]: KindTable<K> } = {
  slot: {
    table: `"${SIGNUPS_SCHEMA}"."slots"`,
    columns: 'id, signup_id, title, description, start_time, end_time, capacity, taken, created_at, updated_at',
    total: 'capacity',
    used: 'taken',
    dates: ['start_time', 'end_time', 'created_at', 'updated_at'],
    fromRow: (raw) => {
      const row = raw as unknown as SlotRow;
      return {
        kind: 'slot',
        id: row.id,
        signupId: row.signup_id,
        title: row.title,
        description: row.description,
        startTime: row.start_time,
        endTime: row.end_time,
        capacity: row.capacity,
        taken: row.taken,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    },
  },
  item: {
    table: `"${SIGNUPS_SCHEMA}"."items"`,
    columns: 'id, signup_id, name, notes, quantity_needed, quantity_claimed, created_at, updated_at',
    total: 'quantity_needed',
    used: 'quantity_claimed',
    dates: ['created_at', 'updated_at'],
    fromRow: (raw) => {
      const row = raw as unknown as ItemRow;
      return {
        kind: 'item',
        id: row.id,
        signupId: row.signup_id,
        name: row.name,
        notes: row.notes,
        quantityNeeded: row.quantity_needed,
        quantityClaimed: row.quantity_claimed,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    },
  },
};

/**
 * A column expression for a signup read in one statement: the signup's rows of `kind` as one
 * JSON array in creation order (empty when it has none); `signupId` is the SQL of its id.
 */
export function contentsJsonSql(kind: Kind, signupId: string): string {
  const { table, columns } = TABLES[kind];
  return `(SELECT COALESCE(json_agg(c ORDER BY c.created_at, c.id), '[]') FROM (SELECT ${columns} FROM ${table} WHERE signup_id = ${signupId}) c)`;
}

/** The contents from the two arrays of contentsJsonSql. */
export function contentsFromJson(slots: Record<string, unknown>[], items: Record<string, unknown>[]): Contents {
  const revive = <K extends Kind>(kind: K, raw: Record<string, unknown>): TargetOf<K> => {
    const row = { ...raw };
    for (const column of TABLES[kind].dates) if (typeof row[column] === 'string') row[column] = new Date(row[column]);
    return TABLES[kind].fromRow(row);
  };
  return { slots: slots.map((row) => revive('slot', row)), items: items.map((row) => revive('item', row)) };
}

/**
 * SQL of a data-modifying CTE for a registration: takes, of every slot (or item) in `wanted` (a
 * relation of kind, target_id and quantity) that belongs to the signup whose id is the SQL
 * `signupId` and has that quantity left, that quantity, and returns the rows as it left them,
 * in the columns of contentsJsonSql. A slot or item without room enough, or not in the
 * signup, is left alone and not returned.
 */
export function takeSql(kind: Kind, wanted: string, signupId: string): string {
  const { table, total, used } = TABLES[kind];
  return `UPDATE ${table} t SET ${used} = t.${used} + w.quantity, updated_at = now()
    FROM ${wanted} w
    WHERE w.kind = '${kind}' AND t.id = w.target_id AND t.signup_id = ${signupId} AND t.${used} + w.quantity <= t.${total}
    RETURNING ${qualifiedColumns(kind, 't')}`;
}

export function qualifiedColumns(kind: Kind, alias: string): string {
  return TABLES[kind].columns
    .split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}
