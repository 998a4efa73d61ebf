import { createDataSource, migrate } from '#libs/persistence';
import { appsWithSchema, databaseUrl } from './migration-target.js';

/**
 * `nx run <app>:migration:run` (and the migration Job in Kubernetes): applies pending
 * migrations of the named apps (all apps with a schema when none is named) to DATABASE_URL,
 * printing one JSON line per app.
 */
async function main(): Promise<void> {
  for (const { app, database } of appsWithSchema(process.argv.slice(2))) {
    const dataSource = createDataSource({ ...database, poolSize: 1 }, { url: databaseUrl() });
    await dataSource.initialize();
    try {
      const applied = await migrate(dataSource);
      process.stdout.write(`${JSON.stringify({ app: app.name, schema: database.schema, applied })}\n`);
    } finally {
      await dataSource.destroy();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
