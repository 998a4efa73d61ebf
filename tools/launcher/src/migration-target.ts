import type { DataSourceSpec } from '#libs/persistence';
import type { AppDefinition } from '#libs/runtime';
import { LOCAL_SERVICES } from '#libs/runtime';
import { APPS } from './apps.js';

/** The apps that own a schema, by name. */
export function appsWithSchema(names: readonly string[]): { app: AppDefinition; database: DataSourceSpec }[] {
  const owners = APPS.filter((app): app is AppDefinition & { database: DataSourceSpec } => app.database !== undefined);
  const unknown = names.filter((n) => !owners.some((app) => app.name === n));
  if (unknown.length > 0)
    throw new Error(`No app with a schema named ${unknown.join(', ')} (known: ${owners.map((a) => a.name).join(', ')})`);
  return owners.filter((app) => names.length === 0 || names.includes(app.name)).map((app) => ({ app, database: app.database }));
}

export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? LOCAL_SERVICES.DATABASE_URL;
}
