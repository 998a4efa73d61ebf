import { retentionLeaseSql, sqlMigration } from '#libs/persistence';

/** The retention job's lease (expired idempotency records are found by the existing expires_at index). */
export const Retention1796450000000 = sqlMigration('Retention1796450000000', retentionLeaseSql('gateway'));
