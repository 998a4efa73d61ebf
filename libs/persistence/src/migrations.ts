import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Statements a migration runs: `up` in order, `down` to undo them. */
export interface MigrationSql {
  up: string[];
  down: string[];
}

/** A migration that runs the statements of each part in order, and undoes them in reverse. */
export function sqlMigration(name: string, ...parts: MigrationSql[]): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of parts.flatMap((part) => part.up)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of parts.toReversed().flatMap((part) => part.down)) await runner.query(statement);
    }
  };
}
