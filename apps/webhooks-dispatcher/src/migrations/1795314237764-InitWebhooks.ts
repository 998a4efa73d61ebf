import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxMigrationSql } from '#libs/bus';
import { applySql } from '#libs/persistence';

export class InitWebhooks1795314237764 implements MigrationInterface {
  name = 'InitWebhooks1795314237764';

  up(runner: QueryRunner): Promise<void> {
    return applySql(runner, outboxMigrationSql('webhooks').up);
  }

  down(runner: QueryRunner): Promise<void> {
    return applySql(runner, outboxMigrationSql('webhooks').down);
  }
}
