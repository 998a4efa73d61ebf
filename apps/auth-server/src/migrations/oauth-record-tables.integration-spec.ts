import type { DataSource, QueryRunner } from 'typeorm';
import { migrate } from '#libs/persistence';
import { createTestStack, type TestStack } from '#libs/testing';
import { authDataSourceSpec } from '../database.js';
import { OAuthRecordTables1796500000000 } from './1796500000000-OAuthRecordTables.js';

let stack: TestStack;
let dataSource: DataSource;
let runner: QueryRunner;
const migration = new OAuthRecordTables1796500000000();

const POLL_KEY = 'a'.repeat(64);
const EARLIER_RECORDS = [
  {
    model: 'GrantOrganization',
    id: 'grant-chosen',
    payload: { organizationId: 'org_chosen' },
    expires_at: new Date('2030-01-31T00:00:00Z'),
  },
  {
    model: 'RevokedGrant',
    id: 'grant-revoked',
    payload: { revokedAt: Date.parse('2030-01-01T00:00:00Z') },
    expires_at: new Date('2030-01-01T01:05:00Z'),
  },
  {
    model: 'DevicePoll',
    id: POLL_KEY,
    payload: { polledAt: Date.parse('2030-01-01T00:00:05Z') },
    expires_at: new Date('2030-01-01T00:10:00Z'),
  },
];

const storeRows = () =>
  dataSource.query<{ model: string; id: string; payload: unknown; expires_at: Date }[]>(
    `SELECT "model", "id", "payload", "expires_at" FROM "auth"."oauth_store" ORDER BY "model", "id"`,
  );

beforeAll(async () => {
  stack = await createTestStack('auth_oauth_record_tables');
  dataSource = stack.infrastructure.dataSource(authDataSourceSpec);
  await dataSource.initialize();
  await migrate(dataSource);
  runner = dataSource.createQueryRunner();
  await migration.down(runner);
  for (const record of [
    ...EARLIER_RECORDS,
    { model: 'Grant', id: 'grant-chosen', payload: { accountId: 'usr_1' }, expires_at: new Date('2030-01-31T00:00:00Z') },
  ]) {
    await runner.query(`INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "expires_at") VALUES ($1, $2, $3, $4)`, [
      record.model,
      record.id,
      JSON.stringify(record.payload),
      record.expires_at,
    ]);
  }
  await migration.up(runner);
});

afterAll(async () => {
  await runner?.release();
  await dataSource?.destroy();
  await stack?.close();
});

describe('OAuthRecordTables migration', () => {
  it("moves the organizations, revocations and device polls kept in the provider's store into their tables, with their expiries", async () => {
    expect(await dataSource.query(`SELECT * FROM "auth"."oauth_grant_organizations"`)).toEqual([
      { grant_id: 'grant-chosen', organization_id: 'org_chosen', expires_at: new Date('2030-01-31T00:00:00Z') },
    ]);
    expect(await dataSource.query(`SELECT * FROM "auth"."oauth_revoked_grants"`)).toEqual([
      { grant_id: 'grant-revoked', revoked_at: new Date('2030-01-01T00:00:00Z'), expires_at: new Date('2030-01-01T01:05:00Z') },
    ]);
    expect(await dataSource.query(`SELECT * FROM "auth"."oauth_device_polls"`)).toEqual([
      { device_code_hash: POLL_KEY, polled_at: new Date('2030-01-01T00:00:05Z'), expires_at: new Date('2030-01-01T00:10:00Z') },
    ]);
    expect((await storeRows()).map((row) => row.model)).toEqual(['Grant']);
  });

  it("moves them back into the provider's store when reverted", async () => {
    await migration.down(runner);
    expect(await dataSource.query(`SELECT to_regclass('"auth"."oauth_revoked_grants"') AS "table"`)).toEqual([{ table: null }]);
    expect((await storeRows()).filter((row) => row.model !== 'Grant')).toEqual(
      [...EARLIER_RECORDS].sort((a, b) => a.model.localeCompare(b.model)),
    );
    await migration.up(runner);
  });
});
