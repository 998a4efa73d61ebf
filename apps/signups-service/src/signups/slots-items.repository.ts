import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { SignupStatus } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Owner } from './signup.js';
import type { Contents, Item, Kind, Slot, Target, TargetOf } from './slot-item.js';
import { qualifiedColumns, TABLES } from './slots-items.sql.js';

const SIGNUPS = `"${SIGNUPS_SCHEMA}"."signups"`;
const WAITLIST_ENTRIES = `"${SIGNUPS_SCHEMA}"."waitlist_entries"`;

export type NewSlot = Pick<Slot, 'id' | 'title' | 'description' | 'startTime' | 'endTime' | 'capacity'>;
export type NewItem = Pick<Item, 'id' | 'name' | 'notes' | 'quantityNeeded'>;

/** The fields an edit may change; null clears a nullable one, undefined leaves it alone. */
export interface SlotChanges {
  title?: string;
  description?: string | null;
  startTime?: Date | null;
  endTime?: Date | null;
  capacity?: number;
}

export interface ItemChanges {
  name?: string;
  notes?: string | null;
  quantityNeeded?: number;
}

export type ChangesOf<K extends Kind> = K extends 'slot' ? SlotChanges : ItemChanges;

const CHANGE_COLUMNS: { [K in Kind]: Record<keyof ChangesOf<K>, { column: string; type: string }> } = {
  slot: {
    title: { column: 'title', type: 'text' },
    description: { column: 'description', type: 'text' },
    startTime: { column: 'start_time', type: 'timestamptz' },
    endTime: { column: 'end_time', type: 'timestamptz' },
    capacity: { column: 'capacity', type: 'integer' },
  },
  item: {
    name: { column: 'name', type: 'text' },
    notes: { column: 'notes', type: 'text' },
    quantityNeeded: { column: 'quantity_needed', type: 'integer' },
  },
};

/** A slot or item as an edit left it, with its limit before the edit. */
export interface EditedTarget<K extends Kind> {
  target: TargetOf<K>;
  previousTotal: number;
}

/** A slot or item after its count moved by delta (see adjust). */
export interface Adjusted {
  target: Target;
  delta: number;
}

/** The signups an organizer's write applies to: owned (organization and mode), in one of the given statuses. */
export interface OwnedSignup {
  owner: Owner;
  signupId: string;
  statuses: SignupStatus[];
}

/**
 * Slots and items in Postgres. Writes run in the caller's transaction (tx.manager) and are each
 * one conditional statement: the ownership and status of the signup, and for counts the limit,
 * are part of its WHERE, so a write that does not apply changes nothing.
 */
@Injectable()
export class SlotsItemsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** The signup's slots and items, each in creation order. */
  async contentsOf(signupId: string, db?: EntityManager): Promise<Contents> {
    if (db) return { slots: await this.list('slot', signupId, db), items: await this.list('item', signupId, db) };
    const [slots, items] = await Promise.all([this.list('slot', signupId), this.list('item', signupId)]);
    return { slots, items };
  }

  async list<K extends Kind>(kind: K, signupId: string, db: EntityManager = this.dataSource.manager): Promise<TargetOf<K>[]> {
    const { table, columns, fromRow } = TABLES[kind];
    const rows = await rowsOf<Record<string, unknown>>(db, `SELECT ${columns} FROM ${table} WHERE signup_id = $1 ORDER BY created_at, id`, [
      signupId,
    ]);
    return rows.map((row) => fromRow(row) as TargetOf<K>);
  }

  async find<K extends Kind>(
    kind: K,
    signupId: string,
    id: string,
    db: EntityManager = this.dataSource.manager,
  ): Promise<TargetOf<K> | undefined> {
    const { table, columns, fromRow } = TABLES[kind];
    const [row] = await rowsOf<Record<string, unknown>>(db, `SELECT ${columns} FROM ${table} WHERE id = $1 AND signup_id = $2`, [
      id,
      signupId,
    ]);
    return row && (fromRow(row) as TargetOf<K>);
  }

  /** Adds slots to an owned signup in an allowed status, in the given order; undefined when the signup does not qualify. */
  async insertSlots(db: EntityManager, where: OwnedSignup, slots: NewSlot[]): Promise<Slot[] | undefined> {
    const rows = await rowsOf<Record<string, unknown>>(
      db,
      `INSERT INTO ${TABLES.slot.table} (id, signup_id, title, description, start_time, end_time, capacity)
       SELECT x.id, g.id, x.title, x.description, x.start_time, x.end_time, x.capacity
       FROM ${SIGNUPS} g,
            unnest($5::uuid[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::integer[])
              AS x(id, title, description, start_time, end_time, capacity)
       WHERE g.id = $1 AND g.organization_id = $2 AND g.livemode = $3 AND g.status = ANY($4::text[])
       RETURNING ${TABLES.slot.columns}`,
      [
        ...ownedParams(where),
        slots.map((s) => s.id),
        slots.map((s) => s.title),
        slots.map((s) => s.description),
        slots.map((s) => s.startTime),
        slots.map((s) => s.endTime),
        slots.map((s) => s.capacity),
      ],
    );
    return rows.length === 0 ? undefined : inOrder(slots, rows.map(TABLES.slot.fromRow));
  }

  /** Adds items to an owned signup in an allowed status, in the given order; undefined when the signup does not qualify. */
  async insertItems(db: EntityManager, where: OwnedSignup, items: NewItem[]): Promise<Item[] | undefined> {
    const rows = await rowsOf<Record<string, unknown>>(
      db,
      `INSERT INTO ${TABLES.item.table} (id, signup_id, name, notes, quantity_needed)
       SELECT x.id, g.id, x.name, x.notes, x.quantity_needed
       FROM ${SIGNUPS} g, unnest($5::uuid[], $6::text[], $7::text[], $8::integer[]) AS x(id, name, notes, quantity_needed)
       WHERE g.id = $1 AND g.organization_id = $2 AND g.livemode = $3 AND g.status = ANY($4::text[])
       RETURNING ${TABLES.item.columns}`,
      [
        ...ownedParams(where),
        items.map((i) => i.id),
        items.map((i) => i.name),
        items.map((i) => i.notes),
        items.map((i) => i.quantityNeeded),
      ],
    );
    return rows.length === 0 ? undefined : inOrder(items, rows.map(TABLES.item.fromRow));
  }

  /**
   * Edits a slot or item of an owned signup in an allowed status, unless its limit would drop
   * below what is taken (or a slot would end before it starts); undefined when it does not apply.
   */
  async update<K extends Kind>(
    db: EntityManager,
    kind: K,
    where: OwnedSignup,
    id: string,
    changes: ChangesOf<K>,
  ): Promise<EditedTarget<K> | undefined> {
    const { table, total, used, fromRow } = TABLES[kind];
    const params: unknown[] = [...ownedParams(where), id];
    const effective = new Map<string, string>();
    const assignments: string[] = [];
    for (const [field, { column, type }] of Object.entries(CHANGE_COLUMNS[kind]) as [string, { column: string; type: string }][]) {
      const value = (changes as Record<string, unknown>)[field];
      if (value === undefined) continue;
      params.push(value);
      effective.set(column, `$${params.length}::${type}`);
      assignments.push(`${column} = $${params.length}::${type}`);
    }
    /** The column's value after the edit: the new one when given, else the current one. */
    const after = (column: string) => effective.get(column) ?? `t.${column}`;
    const guards = [`t.${used} <= ${after(total)}`];
    if (kind === 'slot')
      guards.push(`(${after('end_time')} IS NULL OR ${after('start_time')} IS NULL OR ${after('end_time')} >= ${after('start_time')})`);
    const [row] = await rowsOf<Record<string, unknown> & { previous_total: number }>(
      db,
      `WITH current AS (
         SELECT t.id, t.${total} AS previous_total FROM ${table} t JOIN ${SIGNUPS} g ON g.id = t.signup_id
         WHERE t.signup_id = $1 AND g.organization_id = $2 AND g.livemode = $3 AND g.status = ANY($4::text[]) AND t.id = $5
         FOR UPDATE OF t
       )
       UPDATE ${table} t SET ${[...assignments, 'updated_at = now()'].join(', ')}
       FROM current WHERE t.id = current.id AND ${guards.join(' AND ')}
       RETURNING ${qualifiedColumns(kind, 't')}, current.previous_total`,
      params,
    );
    return row && { target: fromRow(row) as TargetOf<K>, previousTotal: row.previous_total };
  }

  /** Deletes a slot or item of an owned signup in an allowed status while nothing of it is taken and nobody waits for it; undefined otherwise. */
  async delete<K extends Kind>(db: EntityManager, kind: K, where: OwnedSignup, id: string): Promise<TargetOf<K> | undefined> {
    const { table, used, fromRow } = TABLES[kind];
    const [row] = await rowsOf<Record<string, unknown>>(
      db,
      `DELETE FROM ${table} t USING ${SIGNUPS} g
       WHERE t.signup_id = $1 AND g.id = t.signup_id AND g.organization_id = $2 AND g.livemode = $3 AND g.status = ANY($4::text[])
         AND t.id = $5 AND t.${used} = 0
         AND NOT EXISTS (SELECT 1 FROM ${WAITLIST_ENTRIES} w WHERE w.kind = '${kind}' AND w.target_id = t.id AND w.state IN ('waiting', 'offered'))
       RETURNING ${qualifiedColumns(kind, 't')}`,
      [...ownedParams(where), id],
    );
    return row && (fromRow(row) as TargetOf<K>);
  }

  /**
   * Moves what is taken of a slot or item of the signup by delta, in one conditional UPDATE that
   * applies only while the result stays within 0..limit: concurrent calls can never take more
   * than the limit. undefined when it does not apply (not enough left, or no such slot or item).
   */
  async adjust(db: EntityManager, kind: Kind, signupId: string, id: string, delta: number): Promise<Adjusted | undefined> {
    const { table, columns, total, used, fromRow } = TABLES[kind];
    const [row] = await rowsOf<Record<string, unknown>>(
      db,
      `UPDATE ${table} SET ${used} = ${used} + $3, updated_at = now()
       WHERE id = $1 AND signup_id = $2 AND ${used} + $3 BETWEEN 0 AND ${total}
       RETURNING ${columns}`,
      [id, signupId, delta],
    );
    return row && { target: fromRow(row), delta };
  }

  /** Which of the given slots and items belong to the signup, as `kind:id` keys. */
  async existing(signupId: string, refs: { type: Kind; id: string }[], db: EntityManager = this.dataSource.manager): Promise<Set<string>> {
    const ids = (kind: Kind) => refs.filter((r) => r.type === kind).map((r) => r.id);
    const rows = await rowsOf<{ kind: Kind; id: string }>(
      db,
      `SELECT 'slot' AS kind, id FROM ${TABLES.slot.table} WHERE signup_id = $1 AND id = ANY($2::uuid[])
       UNION ALL
       SELECT 'item' AS kind, id FROM ${TABLES.item.table} WHERE signup_id = $1 AND id = ANY($3::uuid[])`,
      [signupId, ids('slot'), ids('item')],
    );
    return new Set(rows.map((r) => `${r.kind}:${r.id}`));
  }
}

function ownedParams({ signupId, owner, statuses }: OwnedSignup): unknown[] {
  return [signupId, owner.organizationId, owner.livemode, statuses];
}

/** Rows in the order of the input they were made from. */
function inOrder<T extends { id: string }>(input: { id: string }[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return input.map((i) => byId.get(i.id)!);
}
