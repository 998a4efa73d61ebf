import { sqlMigration } from '#libs/persistence';

const CONTACTS = '"reminders"."contacts"';

/**
 * A contact keeps its participant's status: `active` is again "registered and not cancelled" (what
 * a pass's catch-up counts against the signup), and only a confirmed one is texted (not one
 * waiting in a line, holding an offer, or past the day).
 */
export const ContactStatus1796600000000 = sqlMigration('ContactStatus1796600000000', {
  up: [
    `ALTER TABLE ${CONTACTS} ADD COLUMN "status" text NOT NULL DEFAULT 'confirmed'`,
    `UPDATE ${CONTACTS} SET "status" = 'cancelled' WHERE NOT "active"`,
  ],
  down: [`ALTER TABLE ${CONTACTS} DROP COLUMN "status"`],
});
