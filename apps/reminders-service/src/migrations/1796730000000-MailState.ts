import { sqlMigration } from '#libs/persistence';

/**
 * What each participant was last told by email: the fingerprint of that message (what it showed),
 * so an event that changes nothing a participant sees mails nothing. Its row is also the lock
 * that keeps two replicas from mailing one participant about two events at once.
 */
export const MailState1796730000000 = sqlMigration('MailState1796730000000', {
  up: [
    `CREATE TABLE "reminders"."mail_state" (
      "participant_id" uuid PRIMARY KEY,
      "fingerprint" text NULL,
      "mailed_at" timestamptz NULL
    )`,
  ],
  down: [`DROP TABLE "reminders"."mail_state"`],
});
