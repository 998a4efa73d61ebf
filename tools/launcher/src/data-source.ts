import { createDataSource } from '#libs/persistence';
import { appsWithSchema, databaseUrl } from './migration-target.js';

/**
 * The DataSource TypeORM's CLI loads for `nx run <app>:migration:generate --name=<Name>`:
 * the app named by MIGRATION_APP on DATABASE_URL.
 */
const [target] = appsWithSchema([process.env.MIGRATION_APP ?? '']);

export default createDataSource(target!.database, { url: databaseUrl() });
