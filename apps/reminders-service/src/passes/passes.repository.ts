import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { newId, REMINDER_HOURS_BEFORE, type ReminderTrigger } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { REMINDERS_SCHEMA } from '../schema.js';

const CONTACTS = `"${REMINDERS_SCHEMA}"."contacts"`;
const MESSAGES = `"${REMINDERS_SCHEMA}"."messages"`;
const OPT_OUTS = `"${REMINDERS_SCHEMA}"."opt_outs"`;
const REMINDED_ADDRESSES = `"${REMINDERS_SCHEMA}"."reminded_addresses"`;
const SIGNUPS = `"${REMINDERS_SCHEMA}"."signups"`;

/**
 * How long a claim keeps others off a person: longer than any pass runs (its deadline), so only
 * the claims of a pass that died are taken over.
 */
export const CLAIM_LEASE_SECONDS = 900;

/** A participant a pass may text: reachable, not opted out, not reminded of this signup yet. */
export interface Candidate {
  participantId: string;
  name: string;
  phone: string;
}

/** A text claimed by a pass, to send. */
export interface ClaimedMessage {
  id: string;
  participantId: string;
  phone: string;
  body: string;
}

export interface NewClaim extends ClaimedMessage {
  signupId: string;
  organizationId: string;
  livemode: boolean;
  trigger: ReminderTrigger;
}

/** A published signup whose automatic pass is due, as the projection knows it, with the lease taken on it. */
export interface DueSignup {
  id: string;
  leaseId: string;
  organizationId: string;
  livemode: boolean;
  title: string;
  eventDate: Date;
  timeZone: string;
  publicUrl: string;
}

/** The reminders of a signup so far: texts sent (one per participant and phone), addresses emailed, and the latest of them. */
export interface RemindedSoFar {
  sms: number;
  email: number;
  lastSentAt: Date | null;
}

export interface StoredMessage extends ClaimedMessage {
  signupId: string;
  trigger: ReminderTrigger;
  sentAt: Date;
}

/** The reminders' own records: claims and sends, and what the projection holds of a signup. */
@Injectable()
export class PassesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * The participants of a signup a pass may text, one per phone number: active and confirmed, with a phone,
   * not opted out, and neither they nor their number claimed for this signup yet. Drops the
   * signup's claims a dead pass left first.
   */
  async candidates(db: EntityManager, signupId: string): Promise<Candidate[]> {
    await rowsOf(
      db,
      `DELETE FROM ${MESSAGES} WHERE signup_id = $1 AND status = 'claimed' AND claimed_at < now() - make_interval(secs => $2)`,
      [signupId, CLAIM_LEASE_SECONDS],
    );
    return rowsOf<Candidate>(
      db,
      `SELECT DISTINCT ON (c.phone) c.participant_id AS "participantId", c.name, c.phone
       FROM ${CONTACTS} c
       WHERE c.signup_id = $1 AND c.active AND c.status = 'confirmed' AND c.phone IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ${OPT_OUTS} o WHERE o.phone = c.phone)
         AND NOT EXISTS (SELECT 1 FROM ${MESSAGES} m WHERE m.signup_id = c.signup_id AND (m.participant_id = c.participant_id OR m.phone = c.phone))
       ORDER BY c.phone, c.participant_id`,
      [signupId],
    );
  }

  /**
   * Claims texts: a row per participant and phone, unless a concurrent pass claimed either
   * first (both are unique per signup). Answers the claims this call made.
   */
  async claim(db: EntityManager, claims: NewClaim[]): Promise<ClaimedMessage[]> {
    if (claims.length === 0) return [];
    return rowsOf<ClaimedMessage>(
      db,
      `INSERT INTO ${MESSAGES} (id, signup_id, participant_id, organization_id, livemode, phone, body, trigger, status)
       SELECT x.id, x.signup_id, x.participant_id, x.organization_id, x.livemode, x.phone, x.body, x.trigger, 'claimed'
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::boolean[], $6::text[], $7::text[], $8::text[])
         AS x(id, signup_id, participant_id, organization_id, livemode, phone, body, trigger)
       ON CONFLICT DO NOTHING
       RETURNING id, participant_id AS "participantId", phone, body`,
      [
        claims.map((c) => c.id),
        claims.map((c) => c.signupId),
        claims.map((c) => c.participantId),
        claims.map((c) => c.organizationId),
        claims.map((c) => c.livemode),
        claims.map((c) => c.phone),
        claims.map((c) => c.body),
        claims.map((c) => c.trigger),
      ],
    );
  }

  /**
   * Takes a claim to 'sending' just before the provider is called, unless the number opted out
   * since it was claimed: from then on the person is never texted again for this signup.
   */
  async markSending(id: string): Promise<boolean> {
    const rows = await rowsOf<{ id: string }>(
      this.dataSource,
      `UPDATE ${MESSAGES} m SET status = 'sending' WHERE m.id = $1 AND m.status = 'claimed'
         AND NOT EXISTS (SELECT 1 FROM ${OPT_OUTS} o WHERE o.phone = m.phone) RETURNING m.id`,
      [id],
    );
    return rows.length === 1;
  }

  async markSent(db: EntityManager, id: string, providerMessageId: string | null): Promise<Date> {
    const [row] = await rowsOf<{ sentAt: Date }>(
      db,
      `UPDATE ${MESSAGES} SET status = 'sent', provider_message_id = $2, sent_at = now() WHERE id = $1 RETURNING sent_at AS "sentAt"`,
      [id, providerMessageId],
    );
    return row!.sentAt;
  }

  /** Gives claims back (failed or never attempted): their participants stay eligible. */
  async release(ids: string[]): Promise<void> {
    if (ids.length > 0) await rowsOf(this.dataSource, `DELETE FROM ${MESSAGES} WHERE id = ANY($1::uuid[]) AND status <> 'sent'`, [ids]);
  }

  /** How many participants of a signup the projection holds as active (registered, not cancelled). */
  async activeParticipants(signupId: string): Promise<number> {
    const [row] = await rowsOf<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM ${CONTACTS} WHERE signup_id = $1 AND active`,
      [signupId],
    );
    return row!.count;
  }

  /** The texts sent and the addresses emailed for a signup (a claim not sent yet is not counted), and when the latest went. */
  async remindedSoFar(signupId: string): Promise<RemindedSoFar> {
    const [row] = await rowsOf<RemindedSoFar>(
      this.dataSource,
      `WITH texts AS (SELECT count(*)::int AS n, max(sent_at) AS at FROM ${MESSAGES} WHERE signup_id = $1 AND status = 'sent'),
            emails AS (SELECT count(*)::int AS n, max(created_at) AS at FROM ${REMINDED_ADDRESSES} WHERE signup_id = $1)
       SELECT texts.n AS sms, emails.n AS email, GREATEST(texts.at, emails.at) AS "lastSentAt" FROM texts, emails`,
      [signupId],
    );
    return row!;
  }

  /** The sandbox texts of a signup, oldest first. */
  async outbox(signupId: string): Promise<StoredMessage[]> {
    return rowsOf<StoredMessage>(
      this.dataSource,
      `SELECT id, signup_id AS "signupId", participant_id AS "participantId", phone, body, trigger, sent_at AS "sentAt"
       FROM ${MESSAGES} WHERE signup_id = $1 AND NOT livemode AND status = 'sent' ORDER BY sent_at, id`,
      [signupId],
    );
  }

  /**
   * Leases one published signup whose event is within its own reminder_hours_before (never one at
   * 0) and whose automatic pass has not run for its current event date. The lease keeps other
   * replicas off it until the pass is done or `leaseSeconds` pass (then one of them runs it again:
   * claims make that safe). The bound at the largest lead keeps the scan of the upcoming index to
   * the events that may be due.
   */
  async leaseDue(leaseSeconds: number): Promise<DueSignup | undefined> {
    const [due] = await rowsOf<DueSignup>(
      this.dataSource,
      `UPDATE ${SIGNUPS} SET auto_pass_lease = now() + make_interval(secs => $1), auto_pass_lease_id = $2
       WHERE id = (
         SELECT id FROM ${SIGNUPS}
         WHERE status = 'published' AND NOT deleted AND event_date > now() AND event_date <= now() + make_interval(hours => $3)
           AND reminder_hours_before > 0 AND event_date <= now() + make_interval(hours => reminder_hours_before)
           AND auto_pass_for IS DISTINCT FROM event_date AND (auto_pass_lease IS NULL OR auto_pass_lease < now())
         ORDER BY event_date LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, auto_pass_lease_id AS "leaseId", organization_id AS "organizationId", livemode, title, event_date AS "eventDate",
                 time_zone AS "timeZone", public_url AS "publicUrl"`,
      [leaseSeconds, newId(), REMINDER_HOURS_BEFORE.max],
    );
    return due;
  }

  /** The automatic pass ran for this event date (a later change of the date makes it due again); only by the lease's holder. */
  async finishAutomaticPass(due: DueSignup): Promise<void> {
    await rowsOf(
      this.dataSource,
      `UPDATE ${SIGNUPS} SET auto_pass_for = $2, auto_pass_lease = NULL, auto_pass_lease_id = NULL WHERE id = $1 AND auto_pass_lease_id = $3`,
      [due.id, due.eventDate, due.leaseId],
    );
  }
}
