import type { DataSource } from 'typeorm';
import type { Bus } from '#libs/bus';
import type { Env } from '#libs/config';
import type { DataSourceSpec } from '#libs/persistence';

/** The adapters one run mode provides to every app it boots. */
export interface Infrastructure {
  env: Env;
  logLevel: string;
  bus: Bus;
  /** Redis URL in services mode; undefined selects in-memory adapters. */
  redisUrl?: string;
  /** A new DataSource for an app's schema on this mode's database (not yet initialized). */
  dataSource(spec: DataSourceSpec): DataSource;
  close(): Promise<void>;
}
