import { outboxRetentionSql } from '#libs/bus';
import { retentionLeaseSql, sqlMigration } from '#libs/persistence';

/** The retention job's lease, and the indexes its deletes of old outbox rows and processed ids read. */
export const Retention1796450000000 = sqlMigration('Retention1796450000000', retentionLeaseSql('signups'), outboxRetentionSql('signups'));
