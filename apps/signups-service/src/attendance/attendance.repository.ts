import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { HOURS_SERVED } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Owner } from '../signups/signup.js';

const PARTICIPANTS = `"${SIGNUPS_SCHEMA}"."participants"`;
const SELECTIONS = `"${SIGNUPS_SCHEMA}"."selections"`;
const SLOTS = `"${SIGNUPS_SCHEMA}"."slots"`;
const SIGNUPS = `"${SIGNUPS_SCHEMA}"."signups"`;

/**
 * The hours a participant served by default ($1: its id): the length of each slot it holds that
 * has both a start and an end time, summed once per slot whatever the quantity (one person serves
 * a shift once), to the hundredth, at most the maximum.
 */
const DEFAULT_HOURS = `(
  SELECT LEAST(${HOURS_SERVED.max}, round(COALESCE(sum(extract(epoch FROM t.end_time - t.start_time)), 0)::numeric / 3600, 2))
  FROM ${SELECTIONS} s JOIN ${SLOTS} t ON t.id = s.target_id
  WHERE s.participant_id = $1 AND s.kind = 'slot' AND t.start_time IS NOT NULL AND t.end_time IS NOT NULL)`;

/** How many participants of a signup are in each attendance status. */
export interface AttendanceCounts {
  confirmed: number;
  attended: number;
  noShow: number;
}

export interface Attendee {
  participantId: string;
  name: string;
  email: string;
  checkedInAt: Date;
  hoursServed: number;
}

export interface SignupHours {
  signupId: string;
  title: string;
  eventDate: Date;
  attended: number;
  hoursServed: number;
}

export interface PersonHours {
  email: string;
  signups: number;
  hoursServed: number;
}

/**
 * A participant's attendance, written in the transaction of the caller, which holds the signup and
 * participant rows (RegistrationLock); and the reads of attendance and hours.
 */
@Injectable()
export class AttendanceRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Status attended from now, with the hours given, or by default those of its slots' times; a no-show mark goes. */
  async checkIn(db: EntityManager, id: string, hoursServed: number | undefined): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${PARTICIPANTS} SET status = 'attended', checked_in_at = now(), no_show_at = NULL,
         hours_served = COALESCE($2::numeric, ${DEFAULT_HOURS}), status_changed_at = now(), updated_at = now()
       WHERE id = $1`,
      [id, hoursServed ?? null],
    );
  }

  async setHours(db: EntityManager, id: string, hoursServed: number): Promise<void> {
    await rowsOf(db, `UPDATE ${PARTICIPANTS} SET hours_served = $2, updated_at = now() WHERE id = $1`, [id, hoursServed]);
  }

  /** Status no_show from now; a check-in and its hours go. */
  async markNoShow(db: EntityManager, id: string): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${PARTICIPANTS} SET status = 'no_show', no_show_at = now(), checked_in_at = NULL, hours_served = NULL,
         status_changed_at = now(), updated_at = now()
       WHERE id = $1`,
      [id],
    );
  }

  /** Clears a check-in or a no-show mark: the participant is confirmed again (the caller then refreshes what its holdings give it). */
  async clear(db: EntityManager, id: string): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${PARTICIPANTS} SET status = 'confirmed', checked_in_at = NULL, no_show_at = NULL, hours_served = NULL,
         status_changed_at = now(), updated_at = now()
       WHERE id = $1`,
      [id],
    );
  }

  async counts(signupId: string): Promise<AttendanceCounts> {
    const [row] = await rowsOf<AttendanceCounts>(
      this.dataSource.manager,
      `SELECT count(*) FILTER (WHERE status = 'confirmed')::integer AS confirmed, count(*) FILTER (WHERE status = 'attended')::integer AS attended,
         count(*) FILTER (WHERE status = 'no_show')::integer AS "noShow"
       FROM ${PARTICIPANTS} WHERE signup_id = $1`,
      [signupId],
    );
    return row!;
  }

  /** The hours served at a signup by everyone checked in. */
  async totalHours(signupId: string): Promise<number> {
    const [row] = await rowsOf<{ total: string }>(
      this.dataSource.manager,
      `SELECT COALESCE(sum(hours_served), 0) AS total FROM ${PARTICIPANTS} WHERE signup_id = $1 AND status = 'attended'`,
      [signupId],
    );
    return Number(row!.total);
  }

  /** The first `limit` participants checked in at a signup, in the order they were. */
  async attendees(signupId: string, limit: number): Promise<Attendee[]> {
    const rows = await rowsOf<Omit<Attendee, 'hoursServed'> & { hoursServed: string }>(
      this.dataSource.manager,
      `SELECT id AS "participantId", name, email, checked_in_at AS "checkedInAt", hours_served AS "hoursServed"
       FROM ${PARTICIPANTS} WHERE signup_id = $1 AND status = 'attended' ORDER BY checked_in_at, id LIMIT $2`,
      [signupId, limit],
    );
    return rows.map((row) => ({ ...row, hoursServed: Number(row.hoursServed) }));
  }

  /** The hours served at the owner's signups whose eventDate is in [from, until). */
  async totalHoursBetween(owner: Owner, from: Date, until: Date): Promise<number> {
    const [row] = await rowsOf<{ total: string }>(
      this.dataSource.manager,
      `SELECT COALESCE(sum(p.hours_served), 0) AS total
       FROM ${SIGNUPS} s JOIN ${PARTICIPANTS} p ON p.signup_id = s.id AND p.status = 'attended'
       WHERE s.organization_id = $1 AND s.livemode = $2 AND s.event_date >= $3 AND s.event_date < $4`,
      [owner.organizationId, owner.livemode, from, until],
    );
    return Number(row!.total);
  }

  /** The first `limit` of the owner's signups whose eventDate is in [from, until), by eventDate then id, with the hours served at each. */
  async hoursBySignup(owner: Owner, from: Date, until: Date, limit: number): Promise<SignupHours[]> {
    const rows = await rowsOf<Omit<SignupHours, 'hoursServed'> & { hoursServed: string }>(
      this.dataSource.manager,
      `SELECT s.id AS "signupId", s.title, s.event_date AS "eventDate", count(p.id)::integer AS attended,
         COALESCE(sum(p.hours_served), 0) AS "hoursServed"
       FROM ${SIGNUPS} s LEFT JOIN ${PARTICIPANTS} p ON p.signup_id = s.id AND p.status = 'attended'
       WHERE s.organization_id = $1 AND s.livemode = $2 AND s.event_date >= $3 AND s.event_date < $4
       GROUP BY s.id ORDER BY s.event_date, s.id LIMIT $5`,
      [owner.organizationId, owner.livemode, from, until, limit],
    );
    return rows.map((row) => ({ ...row, hoursServed: Number(row.hoursServed) }));
  }

  /** The same signups' hours by person (an email in lower case), most hours first, then by email: the first `limit`. */
  async hoursByPerson(owner: Owner, from: Date, until: Date, limit: number): Promise<PersonHours[]> {
    const rows = await rowsOf<Omit<PersonHours, 'hoursServed'> & { hoursServed: string }>(
      this.dataSource.manager,
      `SELECT lower(p.email) AS email, count(DISTINCT p.signup_id)::integer AS signups, sum(p.hours_served) AS "hoursServed"
       FROM ${SIGNUPS} s JOIN ${PARTICIPANTS} p ON p.signup_id = s.id AND p.status = 'attended'
       WHERE s.organization_id = $1 AND s.livemode = $2 AND s.event_date >= $3 AND s.event_date < $4
       GROUP BY lower(p.email) ORDER BY sum(p.hours_served) DESC, lower(p.email) LIMIT $5`,
      [owner.organizationId, owner.livemode, from, until, limit],
    );
    return rows.map((row) => ({ ...row, hoursServed: Number(row.hoursServed) }));
  }
}
