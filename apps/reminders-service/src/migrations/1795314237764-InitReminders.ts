import { outboxMigration } from '#libs/bus';

/** The reminders schema starts with its outbox. */
export const InitReminders1795314237764 = outboxMigration('InitReminders1795314237764', 'reminders');
