import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CloudEvent, EventMap } from '#libs/contracts';
import { prepared, rowsOf } from '#libs/persistence';
import { REMINDERS_SCHEMA } from '../schema.js';

const SIGNUPS = `"${REMINDERS_SCHEMA}"."signups"`;
const CONTACTS = `"${REMINDERS_SCHEMA}"."contacts"`;

/** The projection's statements, one per event, prepared: every registration runs one. */
const APPLY_SIGNUP = prepared(
  `INSERT INTO ${SIGNUPS} AS s (id, organization_id, livemode, title, event_date, time_zone, reminder_hours_before, status, public_url,
     deleted, as_of)
   VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::integer, 24), $8, $9, $10, $11)
   ON CONFLICT (id) DO UPDATE
     SET title = EXCLUDED.title, event_date = EXCLUDED.event_date, time_zone = EXCLUDED.time_zone,
         reminder_hours_before = COALESCE($7::integer, s.reminder_hours_before), status = EXCLUDED.status,
         public_url = EXCLUDED.public_url, deleted = s.deleted OR EXCLUDED.deleted, as_of = EXCLUDED.as_of
     WHERE s.as_of <= EXCLUDED.as_of`,
);
const APPLY_PARTICIPANT = prepared(
  `INSERT INTO ${CONTACTS} AS c (participant_id, signup_id, organization_id, livemode, name, phone, email, active, status, as_of)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   ON CONFLICT (participant_id) DO UPDATE
     SET name = EXCLUDED.name, phone = EXCLUDED.phone, email = EXCLUDED.email, active = EXCLUDED.active, status = EXCLUDED.status,
         as_of = EXCLUDED.as_of
     WHERE c.as_of <= EXCLUDED.as_of`,
);

/** The projection's writes, each applied only when its event is newer than what the row reflects. */
@Injectable()
export class ContactsRepository {
  /**
   * A signup as of a signup.* event; signup.deleted marks it deleted and deactivates its contacts.
   * An event from before reminderHoursBefore (none in it) keeps the row's, or 24 for a new row.
   */
  async applySignup(manager: EntityManager, event: CloudEvent, signup: EventMap['signup.created']): Promise<void> {
    const deleted = event.type === 'signup.deleted';
    await rowsOf(manager, APPLY_SIGNUP, [
      signup.id,
      signup.organizationId,
      signup.livemode,
      signup.title,
      signup.eventDate,
      signup.timeZone,
      signup.reminderHoursBefore,
      signup.status,
      signup.publicUrl,
      deleted,
      event.time,
    ]);
    if (deleted) await rowsOf(manager, `UPDATE ${CONTACTS} SET active = false WHERE signup_id = $1`, [signup.id]);
  }

  /**
   * A participant as of a participant.* event, with its status: a contact is active until its
   * participant is cancelled (participant.canceled) and is texted only while it holds a place
   * (status confirmed: not waiting in a line, holding an offer, or past the day).
   */
  async applyParticipant(manager: EntityManager, event: CloudEvent, participant: EventMap['participant.registered']): Promise<void> {
    await rowsOf(manager, APPLY_PARTICIPANT, [
      participant.id,
      participant.signupId,
      participant.organizationId,
      participant.livemode,
      participant.name,
      participant.phone,
      participant.email,
      participant.status !== 'cancelled',
      participant.status,
      event.time,
    ]);
  }
}
