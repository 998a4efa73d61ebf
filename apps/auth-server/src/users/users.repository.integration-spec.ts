import type { DataSource } from 'typeorm';
import { migrate } from '#libs/persistence';
import { createTestStack, eventually, type TestStack } from '#libs/testing';
import { authDataSourceSpec } from '../database.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import type { Membership, User } from './user.js';
import { UsersRepository } from './users.repository.js';

let stack: TestStack;
let dataSource: DataSource;
let users: UsersRepository;
let organizationId: string;

beforeAll(async () => {
  stack = await createTestStack('auth_users_repository');
  dataSource = stack.infrastructure.dataSource(authDataSourceSpec);
  await dataSource.initialize();
  await migrate(dataSource);
  users = new UsersRepository(dataSource);
  const now = new Date();
  organizationId = (await new OrganizationsRepository(dataSource).insert({
    id: 'org_users',
    name: 'Users',
    slug: 'users',
    tier: 'free',
    timeZone: 'UTC',
    createdAt: now,
    updatedAt: now,
  }))!.id;
});

afterAll(async () => {
  await dataSource?.destroy();
  await stack?.close();
});

let sequence = 0;

function newUser(email: string): { user: User; membership: Membership } {
  const now = new Date();
  const id = `usr_${++sequence}`;
  return {
    user: { id, email, passwordHash: 'hash', emailVerifiedAt: null, createdAt: now },
    membership: { userId: id, organizationId, role: 'member', createdAt: now },
  };
}

/** How many statements of this database wait for another transaction's lock. */
async function waitingOnLocks(): Promise<number> {
  const [row] = await dataSource.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return row!.count;
}

const insert = ({ user, membership }: { user: User; membership: Membership }) =>
  dataSource.transaction((db) => users.insert(db, user, membership));

describe('UsersRepository', () => {
  it('inserts a user with their membership, found again by email in any case', async () => {
    const ada = newUser('Ada@Example.test');
    expect(await insert(ada)).toBe(true);
    expect(await users.findByEmail('ada@example.TEST')).toEqual(ada.user);
    expect(await users.memberships(ada.user.id)).toEqual([ada.membership]);
  });

  it('answers false for an email taken in another case, inserting nothing', async () => {
    await insert(newUser('grace@example.test'));
    const again = newUser('GRACE@example.test');
    expect(await insert(again)).toBe(false);
    expect(await users.findById(again.user.id)).toBeUndefined();
    expect(await users.findMembership(again.user.id, organizationId)).toBeUndefined();
  });

  it('answers false for the later of two concurrent inserts of one email, once the first commits', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const first = newUser('linus@example.test');
      expect(await users.insert(runner.manager, first.user, first.membership)).toBe(true);
      const later = insert(newUser('Linus@example.test'));
      await eventually(async () => expect(await waitingOnLocks()).toBe(1));
      await runner.commitTransaction();
      expect(await later).toBe(false);
    } finally {
      await runner.release();
    }
  });

  it('takes an email whose earlier insert rolled back', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const first = newUser('ken@example.test');
      expect(await users.insert(runner.manager, first.user, first.membership)).toBe(true);
      const later = insert(newUser('Ken@example.test'));
      await eventually(async () => expect(await waitingOnLocks()).toBe(1));
      await runner.rollbackTransaction();
      expect(await later).toBe(true);
    } finally {
      await runner.release();
    }
  });
});
