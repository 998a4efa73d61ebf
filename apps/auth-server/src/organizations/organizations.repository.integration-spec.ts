import type { DataSource } from 'typeorm';
import { migrate } from '#libs/persistence';
import { createTestStack, type TestStack } from '#libs/testing';
import { authDataSourceSpec } from '../database.js';
import type { Organization } from './organization.js';
import { OrganizationsRepository } from './organizations.repository.js';

let stack: TestStack;
let dataSource: DataSource;
let organizations: OrganizationsRepository;

beforeAll(async () => {
  stack = await createTestStack('auth_organizations_repository');
  dataSource = stack.infrastructure.dataSource(authDataSourceSpec);
  await dataSource.initialize();
  await migrate(dataSource);
  organizations = new OrganizationsRepository(dataSource);
});

afterAll(async () => {
  await dataSource?.destroy();
  await stack?.close();
});

function newOrganization(id: string, slug: string): Organization {
  const now = new Date('2030-01-01T00:00:00Z');
  return { id, name: 'Acme Choir', slug, tier: 'free', timeZone: 'UTC', createdAt: now, updatedAt: now };
}

describe('OrganizationsRepository', () => {
  it('inserts an organization and finds it by id', async () => {
    const org = newOrganization('org_first', 'acme-choir-first');
    expect(await organizations.insert(org)).toEqual(org);
    expect(await organizations.findById(org.id)).toEqual(org);
  });

  it('answers undefined for a taken slug, leaving the organization that has it', async () => {
    const holder = newOrganization('org_holder', 'acme-choir-taken');
    await organizations.insert(holder);
    expect(await organizations.insert(newOrganization('org_late', 'acme-choir-taken'))).toBeUndefined();
    expect(await organizations.findById('org_late')).toBeUndefined();
    expect(await organizations.findById(holder.id)).toEqual(holder);
  });

  it("changes the tier and the time zone of a locked organization in the caller's transaction", async () => {
    const org = newOrganization('org_tier', 'acme-choir-tier');
    await organizations.insert(org);
    const changedAt = new Date('2030-02-01T00:00:00Z');
    const changed = await dataSource.transaction(async (db) => {
      await organizations.lockById(db, org.id);
      return organizations.update(db, org.id, { tier: 'pro' }, changedAt);
    });
    expect(changed).toEqual({ ...org, tier: 'pro', updatedAt: changedAt });
    const zoned = await dataSource.transaction(async (db) => {
      await organizations.lockById(db, org.id);
      return organizations.update(db, org.id, { timeZone: 'Asia/Tokyo' }, changedAt);
    });
    expect(zoned).toEqual({ ...changed, timeZone: 'Asia/Tokyo' });
    expect(await organizations.findById(org.id)).toEqual(zoned);
  });

  it('keeps the time zone an organization was made with', async () => {
    const org = { ...newOrganization('org_zoned', 'acme-choir-zoned'), timeZone: 'America/Chicago' };
    expect(await organizations.insert(org)).toEqual(org);
  });
});
