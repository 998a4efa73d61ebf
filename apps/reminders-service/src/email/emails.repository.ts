import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { EmailKind, EmailStatus } from '#libs/contracts';
import { affectedBy, prepared, rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { REMINDERS_SCHEMA } from '../schema.js';

const EMAILS = `"${REMINDERS_SCHEMA}"."emails"`;
const SUPPRESSIONS = `"${REMINDERS_SCHEMA}"."email_suppressions"`;

/** The organization_id of a suppression that holds for every organization (a hard bounce). */
export const EVERY_ORGANIZATION = '';

/**
 * Emails one organization sends one address in 24 hours at most (notices, changes and reminders
 * alike); past it they are recorded suppressed. However an organization edits its signups, a
 * participant's inbox is not its to flood.
 */
export const EMAILS_PER_RECIPIENT_PER_DAY = 20;

/** Reminders are the only mail one unsubscribes from; everything else is about the person's own registration or account. */
const UNSUBSCRIBABLE: readonly EmailKind[] = ['reminder'];

/** An email row as recorded, its message still sealed. */
export interface EmailRow {
  id: string;
  kind: EmailKind;
  status: EmailStatus;
  organizationId: string | null;
  livemode: boolean;
  signupId: string | null;
  participantId: string | null;
  to: string;
  sealed: string;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
}

export interface NewEmailRow {
  id: string;
  dedupKey: string;
  kind: EmailKind;
  organizationId: string | null;
  livemode: boolean;
  signupId: string | null;
  participantId: string | null;
  to: string;
  sealed: string;
  /** Queued to send now, or stored (sandbox, no SMTP_URL). */
  send: boolean;
  /** Suppressed whatever the address (a ceiling was reached). */
  suppress: boolean;
}

const COLUMNS = `id, kind, status, organization_id AS "organizationId", livemode, signup_id AS "signupId",
  participant_id AS "participantId", to_address AS "to", sealed, attempts, created_at AS "createdAt", sent_at AS "sentAt"`;

/**
 * Records an email unless one with its dedup key exists; suppressed at once when its address
 * bounced, or (for a reminder) unsubscribed from its organization, or when its organization already
 * mailed the address its allowance of the last 24 hours ($13; not for the platform's own mail).
 */
const RECORD = prepared(
  `INSERT INTO ${EMAILS} (id, dedup_key, kind, organization_id, livemode, signup_id, participant_id, to_address, sealed, status, next_attempt_at)
   SELECT $1::uuid, $2::text, $3::text, $4::text, $5::boolean, $6::uuid, $7::uuid, $8::text, $9::text, s.status,
          CASE WHEN s.status = 'queued' THEN now() END
   FROM (SELECT CASE
     WHEN $12::boolean THEN 'suppressed'
     WHEN EXISTS (SELECT 1 FROM ${SUPPRESSIONS} x WHERE x.address = lower($8)
                  AND (x.organization_id = '' OR (x.organization_id = $4 AND $3 = ANY($11::text[])))) THEN 'suppressed'
     WHEN $4::text IS NOT NULL AND (SELECT count(*) FROM ${EMAILS} e WHERE e.organization_id = $4 AND lower(e.to_address) = lower($8)
                  AND e.created_at > now() - interval '1 day' AND e.status <> 'suppressed') >= $13::int THEN 'suppressed'
     WHEN $10::boolean THEN 'queued' ELSE 'stored' END AS status) s
   ON CONFLICT (dedup_key) DO NOTHING
   RETURNING id, status`,
);

/** The outbox's rows: recording, claiming due ones, their outcomes, suppressions, and the listings. */
@Injectable()
export class EmailsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Answers the new row's id and status, or undefined when the dedup key was recorded before. */
  async record(db: EntityManager, email: NewEmailRow): Promise<{ id: string; status: EmailStatus } | undefined> {
    const [row] = await rowsOf<{ id: string; status: EmailStatus }>(db, RECORD, [
      email.id,
      email.dedupKey,
      email.kind,
      email.organizationId,
      email.livemode,
      email.signupId,
      email.participantId,
      email.to,
      email.sealed,
      email.send,
      UNSUBSCRIBABLE,
      email.suppress,
      EMAILS_PER_RECIPIENT_PER_DAY,
    ]);
    return row;
  }

  /** The id of the email recorded under a dedup key, in `db`'s transaction (after record, it exists). */
  async idOf(db: EntityManager, dedupKey: string): Promise<string> {
    const [row] = await rowsOf<{ id: string }>(db, `SELECT id FROM ${EMAILS} WHERE dedup_key = $1`, [dedupKey]);
    if (!row) throw new Error('No email was recorded under this dedup key.');
    return row.id;
  }

  /**
   * Claims up to `limit` emails due: queued ones whose time came, and ones a replica that died
   * left sending past their lease. Each claim counts an attempt and holds the row for `leaseSeconds`.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<EmailRow[]> {
    return rowsOf<EmailRow>(
      this.dataSource,
      `UPDATE ${EMAILS} SET status = 'sending', attempts = attempts + 1, lease_until = now() + make_interval(secs => $2)
       WHERE id IN (
         SELECT id FROM ${EMAILS}
         WHERE (status = 'queued' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now())
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [limit, leaseSeconds],
    );
  }

  /** Whether an address may get mail of this kind from this organization now (it may have bounced since it was recorded). */
  async isSuppressed(address: string, organizationId: string | null, kind: EmailKind): Promise<boolean> {
    const [row] = await rowsOf<{ suppressed: boolean }>(
      this.dataSource,
      `SELECT EXISTS (SELECT 1 FROM ${SUPPRESSIONS} WHERE address = lower($1)
         AND (organization_id = '' OR (organization_id = $2 AND $3 = ANY($4::text[])))) AS suppressed`,
      [address, organizationId, kind, UNSUBSCRIBABLE],
    );
    return row!.suppressed;
  }

  /** Ends a claim: sent, failed, suppressed, or queued again at `retryAt`. Only the holder of the claim (its attempt) moves it. */
  async finish(
    id: string,
    attempt: number,
    outcome: { status: 'sent' | 'failed' | 'suppressed'; error?: string } | { status: 'queued'; retryAt: Date; error: string },
  ): Promise<boolean> {
    const changed = await affectedBy(
      this.dataSource,
      `UPDATE ${EMAILS} SET status = $3, lease_until = NULL, last_error = $4,
         next_attempt_at = $5, sent_at = CASE WHEN $3 = 'sent' THEN now() END
       WHERE id = $1 AND attempts = $2 AND status = 'sending'`,
      [id, attempt, outcome.status, outcome.error ?? null, outcome.status === 'queued' ? outcome.retryAt : null],
    );
    return changed === 1;
  }

  /** Stops mailing an address: for everyone (EVERY_ORGANIZATION, a bounce) or one organization's reminders (an unsubscribe). */
  async suppress(address: string, organizationId: string, reason: 'bounced' | 'unsubscribed'): Promise<void> {
    await rowsOf(
      this.dataSource,
      `INSERT INTO ${SUPPRESSIONS} (address, organization_id, reason) VALUES (lower($1), $2, $3) ON CONFLICT DO NOTHING`,
      [address, organizationId, reason],
    );
  }

  /** The newest emails, newest first: those of one signup (its sandbox listing), or every stored one (the mailbox). */
  async list(filter: { signupId: string } | { stored: true }, limit: number): Promise<EmailRow[]> {
    const where = 'signupId' in filter ? 'signup_id = $2 AND NOT livemode' : `status = 'stored'`;
    return rowsOf<EmailRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM ${EMAILS} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $1`,
      'signupId' in filter ? [limit, filter.signupId] : [limit],
    );
  }

  async get(id: string): Promise<EmailRow | undefined> {
    const [row] = await rowsOf<EmailRow>(this.dataSource, `SELECT ${COLUMNS} FROM ${EMAILS} WHERE id = $1`, [id]);
    return row;
  }
}
