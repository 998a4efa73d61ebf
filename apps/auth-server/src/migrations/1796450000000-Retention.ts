import { outboxRetentionSql } from '#libs/bus';
import { retentionLeaseSql, sqlMigration } from '#libs/persistence';

/**
 * The retention job's lease, and the indexes its deletes of old outbox rows and processed ids
 * read (expired OAuth rows and sessions are found by their existing expires_at indexes).
 */
export const Retention1796450000000 = sqlMigration('Retention1796450000000', retentionLeaseSql('auth'), outboxRetentionSql('auth'));
