import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventType, SignupStatus } from '#libs/contracts';
import { prepared, rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Question } from './question.js';
import { questionsJsonSql } from './questions.repository.js';
import type { Owner, Signup, SignupChanges, WaitlistSettings } from './signup.js';
import { signupViewJsonSql } from './signup-view.sql.js';
import type { Contents } from './slot-item.js';
import { contentsFromJson, contentsJsonSql } from './slots-items.sql.js';

const TABLE = `"${SIGNUPS_SCHEMA}"."signups"`;
const DAILY_CREATIONS = `"${SIGNUPS_SCHEMA}"."daily_creations"`;
const UTC_TODAY = `(now() AT TIME ZONE 'UTC')::date`;
/** The columns of a signup row, with its questions; every statement names the signups table `s`. */
const COLUMNS = `id, organization_id, livemode, slug, title, description, status, event_date, time_zone, location, max_participants,
  requires_phone, signup_close_date, reminder_hours_before, waitlist_enabled, waitlist_mode, waitlist_offer_minutes, series_id,
  participant_count, created_at, updated_at, published_at, closed_at, ${questionsJsonSql('s.id')} AS questions`;

/** The hot statements, prepared (parsed and planned once per connection). */
const FIND_BY_ID = prepared(`SELECT ${COLUMNS} FROM ${TABLE} s WHERE id = $1`);
const FIND_BY_SLUG = prepared(`SELECT ${COLUMNS} FROM ${TABLE} s WHERE slug = $1`);
const FIND_WITH_CONTENTS = prepared(
  `SELECT ${COLUMNS}, ${contentsJsonSql('slot', 's.id')} AS slots, ${contentsJsonSql('item', 's.id')} AS items FROM ${TABLE} s WHERE s.id = $1`,
);
const FIND_MANY_WITH_CONTENTS = prepared(
  `SELECT ${COLUMNS}, ${contentsJsonSql('slot', 's.id')} AS slots, ${contentsJsonSql('item', 's.id')} AS items FROM ${TABLE} s
   WHERE s.id = ANY($1::uuid[])`,
);
const LOCK = {
  share: prepared(`SELECT ${COLUMNS} FROM ${TABLE} s WHERE id = $1 FOR SHARE`),
  update: prepared(`SELECT ${COLUMNS} FROM ${TABLE} s WHERE id = $1 FOR NO KEY UPDATE`),
};
/** Who may read a signup (signup.policy's accessOf), and its detail view as Postgres wrote it; $2 is the public origin. */
const FIND_DETAIL_JSON = prepared(
  `SELECT organization_id, livemode, status, ${signupViewJsonSql('$2::text', true)} AS json FROM ${TABLE} s WHERE s.id = $1`,
);
const COUNT_PARTICIPANTS = prepared(`UPDATE ${TABLE} s SET participant_count = participant_count + $2 WHERE id = $1 RETURNING ${COLUMNS}`);

interface SignupRow {
  id: string;
  organization_id: string;
  livemode: boolean;
  slug: string;
  title: string;
  description: string | null;
  status: SignupStatus;
  event_date: Date;
  time_zone: string;
  location: string | null;
  max_participants: number | null;
  requires_phone: boolean;
  signup_close_date: Date | null;
  reminder_hours_before: number;
  waitlist_enabled: boolean;
  waitlist_mode: WaitlistSettings['mode'];
  waitlist_offer_minutes: number;
  series_id: string | null;
  participant_count: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  closed_at: Date | null;
  questions: Question[];
}

function signupFromRow(row: SignupRow): Signup {
  return {
    id: row.id,
    organizationId: row.organization_id,
    livemode: row.livemode,
    slug: row.slug,
    title: row.title,
    description: row.description,
    status: row.status,
    eventDate: row.event_date,
    timeZone: row.time_zone,
    location: row.location,
    maxParticipants: row.max_participants,
    requiresPhone: row.requires_phone,
    signupCloseDate: row.signup_close_date,
    reminderHoursBefore: row.reminder_hours_before,
    waitlist: { enabled: row.waitlist_enabled, mode: row.waitlist_mode, offerMinutes: row.waitlist_offer_minutes },
    seriesId: row.series_id,
    participantCount: row.participant_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    closedAt: row.closed_at,
    questions: row.questions,
  };
}

export type NewSignup = Owner &
  Pick<
    Signup,
    | 'id'
    | 'slug'
    | 'title'
    | 'description'
    | 'eventDate'
    | 'timeZone'
    | 'location'
    | 'maxParticipants'
    | 'requiresPhone'
    | 'signupCloseDate'
    | 'reminderHoursBefore'
    | 'waitlist'
  > &
  Partial<Pick<Signup, 'seriesId'>>;

/** Earliest event first, then id. */
export function byEventDate(a: Signup, b: Signup): number {
  return a.eventDate.getTime() - b.eventDate.getTime() || a.id.localeCompare(b.id);
}

export type SignupEventType = Extract<EventType, `signup.${string}`>;

/** The sort key of the signup lists: newest event first, then id. */
export interface ListPosition {
  eventDate: Date;
  id: string;
}

/**
 * A signup's view as Postgres wrote it (signup-view.sql): null where only JavaScript can write
 * one of its values, so the caller builds that view from the signup itself.
 */
export interface SignupJson {
  json: string | null;
}

/** What accessOf needs of a signup, with its detail view as Postgres wrote it. */
export type SignupDetailJson = SignupJson & Pick<Signup, 'organizationId' | 'livemode' | 'status'>;

/** A listed signup's view as Postgres wrote it, with its list position. */
export type ListedSignupJson = SignupJson & ListPosition;

export interface ListFilter {
  status?: SignupStatus;
  seriesId?: string;
  /** Only the signups changed at or after this instant. */
  updatedSince?: Date;
  after?: ListPosition;
  limit: number;
}

/** Adds a parameter; its placeholder. */
function parameter(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

/**
 * The WHERE of a page of the owner's signups, and its parameters. Its text is one of sixteen
 * (with or without a status, a series, a change time, a position), whatever the values, so it can
 * be prepared.
 */
function listConditions(owner: Owner, filter: ListFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [owner.organizationId, owner.livemode];
  let where = 'organization_id = $1 AND livemode = $2';
  if (filter.status) where += ` AND status = ${parameter(params, filter.status)}`;
  if (filter.seriesId) where += ` AND series_id = ${parameter(params, filter.seriesId)}`;
  if (filter.updatedSince) where += ` AND updated_at >= ${parameter(params, filter.updatedSince)}::timestamptz`;
  if (filter.after) {
    const [eventDate, id] = [parameter(params, filter.after.eventDate), parameter(params, filter.after.id)];
    where += ` AND (event_date, id) < (${eventDate}::timestamptz, ${id}::uuid)`;
  }
  return { where, params };
}

const CHANGE_COLUMNS: Readonly<Record<Exclude<keyof SignupChanges, 'waitlist'>, string>> = {
  title: 'title',
  description: 'description',
  eventDate: 'event_date',
  timeZone: 'time_zone',
  location: 'location',
  maxParticipants: 'max_participants',
  requiresPhone: 'requires_phone',
  signupCloseDate: 'signup_close_date',
  reminderHoursBefore: 'reminder_hours_before',
};

const WAITLIST_COLUMNS: Readonly<Record<keyof WaitlistSettings, string>> = {
  enabled: 'waitlist_enabled',
  mode: 'waitlist_mode',
  offerMinutes: 'waitlist_offer_minutes',
};

/**
 * Signups in Postgres. Every write is one conditional statement, in the caller's transaction
 * (where its event goes too), so a write that does not apply changes nothing: undefined.
 */
@Injectable()
export class SignupsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Inserts a new signup; undefined when its slug is already taken. */
  async insert(db: EntityManager, signup: NewSignup): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(
      db,
      `INSERT INTO ${TABLE} AS s (id, organization_id, livemode, slug, title, description, event_date, time_zone, location, max_participants,
         requires_phone, signup_close_date, reminder_hours_before, waitlist_enabled, waitlist_mode, waitlist_offer_minutes, series_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (slug) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        signup.id,
        signup.organizationId,
        signup.livemode,
        signup.slug,
        signup.title,
        signup.description,
        signup.eventDate,
        signup.timeZone,
        signup.location,
        signup.maxParticipants,
        signup.requiresPhone,
        signup.signupCloseDate,
        signup.reminderHoursBefore,
        signup.waitlist.enabled,
        signup.waitlist.mode,
        signup.waitlist.offerMinutes,
        signup.seriesId ?? null,
      ],
    );
    return row && signupFromRow(row);
  }

  /**
   * Counts a creation among its organization's creations of the UTC day, unless the organization
   * already created `dailyCap` today: false then. Concurrent creations queue on the
   * organization's counter row, so the cap holds exactly.
   */
  async countCreation(db: EntityManager, organizationId: string, dailyCap: number): Promise<boolean> {
    await rowsOf(db, `DELETE FROM ${DAILY_CREATIONS} WHERE organization_id = $1 AND day < ${UTC_TODAY}`, [organizationId]);
    const counted = await rowsOf(
      db,
      `INSERT INTO ${DAILY_CREATIONS} AS d (organization_id, day, count)
       SELECT $1, ${UTC_TODAY}, 1 WHERE $2::integer > 0
       ON CONFLICT (organization_id, day) DO UPDATE SET count = d.count + 1 WHERE d.count < $2::integer
       RETURNING count`,
      [organizationId, dailyCap],
    );
    return counted.length > 0;
  }

  async findById(id: string, db: EntityManager = this.dataSource.manager): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(db, FIND_BY_ID, [id]);
    return row && signupFromRow(row);
  }

  /** A signup with its slots and items, read in one statement (one round trip: the single read is the hottest path). */
  async findWithContents(
    id: string,
    db: EntityManager = this.dataSource.manager,
  ): Promise<{ signup: Signup; contents: Contents } | undefined> {
    const [row] = await rowsOf<SignupRow & { slots: Record<string, unknown>[]; items: Record<string, unknown>[] }>(db, FIND_WITH_CONTENTS, [
      id,
    ]);
    return row && { signup: signupFromRow(row), contents: contentsFromJson(row.slots, row.items) };
  }

  /** The signups of these ids that exist, each with its slots and items, in one statement. */
  async findManyWithContents(ids: string[]): Promise<{ signup: Signup; contents: Contents }[]> {
    const rows = await rowsOf<SignupRow & { slots: Record<string, unknown>[]; items: Record<string, unknown>[] }>(
      this.dataSource.manager,
      FIND_MANY_WITH_CONTENTS,
      [ids],
    );
    return rows.map((row) => ({ signup: signupFromRow(row), contents: contentsFromJson(row.slots, row.items) }));
  }

  /** A signup's detail view (SignupPresenter.detail) as Postgres wrote it, with who may read it, in one statement. */
  async findDetailJson(id: string, publicOrigin: string): Promise<SignupDetailJson | undefined> {
    const [row] = await rowsOf<{ organization_id: string; livemode: boolean; status: SignupStatus; json: string | null }>(
      this.dataSource.manager,
      FIND_DETAIL_JSON,
      [id, publicOrigin],
    );
    return row && { organizationId: row.organization_id, livemode: row.livemode, status: row.status, json: row.json };
  }

  async findBySlug(slug: string): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(this.dataSource.manager, FIND_BY_SLUG, [slug]);
    return row && signupFromRow(row);
  }

  /**
   * Reads a signup and locks its row until the transaction ends: the first step of every write
   * that touches its participants, slots or items (lock order: signup, participant, slots by id,
   * items by id; a registration takes this lock by counting itself, countParticipants), so such a write and the deletion of the signup (which locks the row first, then
   * its slots, items and participants) never wait for each other in a cycle, and its checks
   * (status, event date, ownership) hold until it commits.
   * - 'share' (FOR SHARE), for writes that leave the row alone (edits of a participant, of a slot
   *   or item): they run side by side, while a close, an edit or a deletion of the signup, and a
   *   write of participant_count, wait for them (and they for it);
   * - 'update' (FOR NO KEY UPDATE, what the UPDATE of participant_count takes anyway), for
   *   removals: they queue on the row, as registrations do.
   * undefined when there is no such signup (also when it was deleted while this waited).
   */
  async lock(db: EntityManager, id: string, mode: 'share' | 'update'): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(db, LOCK[mode], [id]);
    return row && signupFromRow(row);
  }

  /**
   * Moves participant_count of a signup by `delta` participants, and reads the row as that left
   * it. Its UPDATE takes the lock that lock('update') takes (and, when it had to wait, reads the
   * row as the write it waited for committed it), so a batch of registrations locks and counts
   * in one statement. undefined when there is no such signup.
   */
  async countParticipants(db: EntityManager, id: string, delta: number): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(db, COUNT_PARTICIPANTS, [id, delta]);
    return row && signupFromRow(row);
  }

  /**
   * One page of the owner's signups, newest event first (keyset: stable under concurrent
   * inserts), prepared (see listConditions).
   */
  async list(owner: Owner, filter: ListFilter): Promise<Signup[]> {
    const { where, params } = listConditions(owner, filter);
    const limit = parameter(params, filter.limit);
    const rows = await rowsOf<SignupRow>(
      this.dataSource.manager,
      prepared(`SELECT ${COLUMNS} FROM ${TABLE} s WHERE ${where} ORDER BY event_date DESC, id DESC LIMIT ${limit}`),
      params,
    );
    return rows.map(signupFromRow);
  }

  /** The page list() reads, each signup's view (SignupPresenter.view) as Postgres wrote it. */
  async listJson(owner: Owner, filter: ListFilter, publicOrigin: string): Promise<ListedSignupJson[]> {
    const { where, params } = listConditions(owner, filter);
    const limit = parameter(params, filter.limit);
    const origin = parameter(params, publicOrigin);
    const rows = await rowsOf<{ id: string; event_date: Date; json: string | null }>(
      this.dataSource.manager,
      prepared(
        `SELECT id, event_date, ${signupViewJsonSql(`${origin}::text`, false)} AS json FROM ${TABLE} s
         WHERE ${where} ORDER BY event_date DESC, id DESC LIMIT ${limit}`,
      ),
      params,
    );
    return rows.map((row) => ({ id: row.id, eventDate: row.event_date, json: row.json }));
  }

  /** Applies changes to an owned signup in one of the given statuses; undefined when there is none. */
  update(db: EntityManager, owner: Owner, id: string, from: SignupStatus[], changes: SignupChanges): Promise<Signup | undefined> {
    const params: unknown[] = [];
    const assign = (column: string, value: unknown) => {
      params.push(value);
      return `${column} = $${params.length + 4}`;
    };
    const { waitlist = {}, ...fields } = changes;
    const assignments = [
      ...(Object.keys(CHANGE_COLUMNS) as (keyof typeof CHANGE_COLUMNS)[])
        .filter((field) => fields[field] !== undefined)
        .map((field) => assign(CHANGE_COLUMNS[field], fields[field])),
      ...(Object.keys(WAITLIST_COLUMNS) as (keyof WaitlistSettings)[])
        .filter((field) => waitlist[field] !== undefined)
        .map((field) => assign(WAITLIST_COLUMNS[field], waitlist[field])),
    ];
    return this.updateOwned(db, owner, id, from, assignments, params);
  }

  /** Moves an owned signup in one of the given statuses to published or closed, stamping when. */
  changeStatus(db: EntityManager, owner: Owner, id: string, from: SignupStatus[], to: 'published' | 'closed'): Promise<Signup | undefined> {
    const stamp = to === 'published' ? 'published_at' : 'closed_at';
    return this.updateOwned(db, owner, id, from, ['status = $5', `${stamp} = now()`], [to]);
  }

  /**
   * Puts an owned signup in a series: its own when it has one, else `seriesId`; the row as that
   * left it, locked until the transaction ends (its copies are read from it), or undefined when
   * the caller owns no such signup.
   */
  async joinSeries(db: EntityManager, owner: Owner, id: string, seriesId: string): Promise<Signup | undefined> {
    const joined = await this.write(
      db,
      `UPDATE ${TABLE} s SET series_id = $4, updated_at = now()
       WHERE id = $1 AND organization_id = $2 AND livemode = $3 AND series_id IS NULL
       RETURNING ${COLUMNS}`,
      [id, owner.organizationId, owner.livemode, seriesId],
    );
    return joined ?? this.lockOwned(db, owner, id);
  }

  /** Moves every owned signup of a series in status `from` to `to`, stamping when; the signups it moved, by event date. */
  async changeSeriesStatus(
    db: EntityManager,
    owner: Owner,
    seriesId: string,
    from: SignupStatus,
    to: 'published' | 'closed',
  ): Promise<Signup[]> {
    const stamp = to === 'published' ? 'published_at' : 'closed_at';
    const rows = await rowsOf<SignupRow>(
      db,
      `UPDATE ${TABLE} s SET status = $5, ${stamp} = now(), updated_at = now()
       WHERE series_id = $1 AND organization_id = $2 AND livemode = $3 AND status = $4
       RETURNING ${COLUMNS}`,
      [seriesId, owner.organizationId, owner.livemode, from, to],
    );
    return rows.map(signupFromRow).sort(byEventDate);
  }

  /** Whether the owner has a signup in this series. */
  async hasSeries(db: EntityManager, owner: Owner, seriesId: string): Promise<boolean> {
    const rows = await rowsOf(db, `SELECT 1 FROM ${TABLE} WHERE series_id = $1 AND organization_id = $2 AND livemode = $3 LIMIT 1`, [
      seriesId,
      owner.organizationId,
      owner.livemode,
    ]);
    return rows.length > 0;
  }

  /** Deletes an owned signup; undefined when there is none. */
  delete(db: EntityManager, owner: Owner, id: string): Promise<Signup | undefined> {
    return this.write(db, `DELETE FROM ${TABLE} s WHERE id = $1 AND organization_id = $2 AND livemode = $3 RETURNING ${COLUMNS}`, [
      id,
      owner.organizationId,
      owner.livemode,
    ]);
  }

  private updateOwned(db: EntityManager, owner: Owner, id: string, from: SignupStatus[], assignments: string[], params: unknown[]) {
    return this.write(
      db,
      `UPDATE ${TABLE} s SET ${[...assignments, 'updated_at = now()'].join(', ')}
       WHERE id = $1 AND organization_id = $2 AND livemode = $3 AND status = ANY($4::text[])
       RETURNING ${COLUMNS}`,
      [id, owner.organizationId, owner.livemode, from, ...params],
    );
  }

  /** An owned signup, locked (FOR NO KEY UPDATE) until the transaction ends; undefined when the caller owns none of this id. */
  private lockOwned(db: EntityManager, owner: Owner, id: string): Promise<Signup | undefined> {
    return this.write(db, `SELECT ${COLUMNS} FROM ${TABLE} s WHERE id = $1 AND organization_id = $2 AND livemode = $3 FOR NO KEY UPDATE`, [
      id,
      owner.organizationId,
      owner.livemode,
    ]);
  }

  /** Runs one statement; the signup it returned, if any. */
  private async write(db: EntityManager, sql: string, params: unknown[]): Promise<Signup | undefined> {
    const [row] = await rowsOf<SignupRow>(db, sql, params);
    return row && signupFromRow(row);
  }
}
