import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxMigrationSql } from '#libs/bus';
import { applySql } from '#libs/persistence';

export class InitReminders1795314237764 implements MigrationInterface {
  name = 'InitReminders1795314237764';

  up(runner: QueryRunner): Promise<void> {
    return applySql(runner, outboxMigrationSql('reminders').up);
  }

  down(runner: QueryRunner): Promise<void> {
    return applySql(runner, outboxMigrationSql('reminders').down);
  }
}
