import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import pg from 'pg';
import { type DatabaseTarget, type DataSourceSpec, SESSION_SETTINGS } from './data-source.js';

type ConnectCallback = (err: Error | null, client?: pg.PoolClient, done?: (release?: Error | boolean) => void) => void;

const ACQUIRE_TIMEOUT_MS = 30_000;

export interface EmbeddedDatabase {
  /** Driver options that bind a DataSource for `spec` to the shared embedded database. */
  target(spec: DataSourceSpec): DatabaseTarget;
  close(): Promise<void>;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One process per data folder: a second one would corrupt it silently. The lock file is
 * created exclusively; one left by a process that is gone is taken over.
 */
function lockFolder(dir: string): () => void {
  const file = join(dir, 'postmaster.lock');
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid !== process.pid && isRunning(pid)) throw new Error(`The data folder ${dir} is in use by process ${pid}`);
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}

/**
 * Embedded Postgres (PGlite) for the all-in-one mode, persisted in a folder. Every app's
 * DataSource talks to it through the ordinary pg driver over one shared connection: a
 * transaction holds the database alone until it ends, so apps never see each other's
 * uncommitted work. The search_path is set on every checkout because the session is shared.
 */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockFolder(dataDir);
  const pglite = await PGlite.create({ dataDir: join(dataDir, 'pg') });
  for (const [name, value] of Object.entries(SESSION_SETTINGS)) await pglite.query('SELECT set_config($1, $2, false)', [name, value]);
  const shared = new pg.Pool({ ...createPgConfig(pglite), max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS });
  shared.on('error', () => undefined);

  const driverFor = (schema: string) => {
    class EmbeddedPool extends EventEmitter {
      connect(callback: ConnectCallback): void {
        shared.connect((err, client, done) => {
          if (err || !client) return callback(err ?? new Error('no connection'));
          const prepare = async () => {
            if (pglite.isInTransaction()) await client.query('ROLLBACK');
            await client.query(`SET search_path TO "${schema}", public`);
          };
          prepare().then(
            () => callback(null, client, done),
            (failure: Error) => {
              done(failure);
              callback(failure);
            },
          );
        });
      }
      query(...args: Parameters<pg.Pool['query']>): ReturnType<pg.Pool['query']> {
        return shared.query(...args);
      }
      end(callback?: (err?: Error) => void): void {
        callback?.();
      }
    }
    return { ...pg, Pool: EmbeddedPool };
  };

  return {
    target: (spec) => ({ driverOptions: { driver: driverFor(spec.schema) } as never }),
    async close() {
      await shared.end();
      await pglite.close();
      unlock();
    },
  };
}
