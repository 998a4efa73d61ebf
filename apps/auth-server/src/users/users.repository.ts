import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { isPlainText, type MemberRole } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';
import type { Member, Membership, User } from './user.js';

const USERS = `"${AUTH_SCHEMA}"."users"`;
const MEMBERSHIPS = `"${AUTH_SCHEMA}"."memberships"`;
const USER_COLUMNS = 'id, email, password_hash, email_verified_at, created_at';
const MEMBERSHIP_COLUMNS = 'user_id, organization_id, role, created_at';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  created_at: Date;
}

interface MembershipRow {
  user_id: string;
  organization_id: string;
  role: MemberRole;
  created_at: Date;
}

function userFromRow(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
  };
}

function membershipFromRow(row: MembershipRow): Membership {
  return { userId: row.user_id, organizationId: row.organization_id, role: row.role, createdAt: row.created_at };
}

@Injectable()
export class UsersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<User | undefined> {
    const [row] = await rowsOf<UserRow>(this.dataSource, `SELECT ${USER_COLUMNS} FROM ${USERS} WHERE id = $1`, [id]);
    return row && userFromRow(row);
  }

  /** Case-insensitive, as the unique index. */
  /** The user of an email, whatever its case; none for text no email can hold (Postgres refuses a NUL). */
  async findByEmail(email: string): Promise<User | undefined> {
    if (!isPlainText(email)) return undefined;
    const [row] = await rowsOf<UserRow>(this.dataSource, `SELECT ${USER_COLUMNS} FROM ${USERS} WHERE lower(email) = lower($1)`, [email]);
    return row && userFromRow(row);
  }

  /** The user's memberships, oldest first. */
  async memberships(userId: string): Promise<Membership[]> {
    const rows = await rowsOf<MembershipRow>(
      this.dataSource,
      `SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE user_id = $1 ORDER BY created_at, organization_id`,
      [userId],
    );
    return rows.map(membershipFromRow);
  }

  /**
   * Inserts a user with their first membership; false, inserting nothing, when the email is
   * taken whatever its case (the unique index on lower(email)). A concurrent insert of the same
   * email waits for the other transaction and is taken if it commits.
   */
  async insert(db: EntityManager, user: User, membership: Membership): Promise<boolean> {
    const inserted = await rowsOf(
      db,
      `INSERT INTO ${USERS} (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
      [user.id, user.email, user.passwordHash, user.emailVerifiedAt, user.createdAt],
    );
    if (inserted.length === 0) return false;
    await rowsOf(db, `INSERT INTO ${MEMBERSHIPS} (${MEMBERSHIP_COLUMNS}) VALUES ($1, $2, $3, $4)`, [
      membership.userId,
      membership.organizationId,
      membership.role,
      membership.createdAt,
    ]);
    return true;
  }

  /** Marks the user's email verified (once: a later call keeps the first time). */
  async markEmailVerified(db: EntityManager, userId: string): Promise<void> {
    await rowsOf(db, `UPDATE ${USERS} SET email_verified_at = now() WHERE id = $1 AND email_verified_at IS NULL`, [userId]);
  }

  /** Replaces the user's password hash (argon2id PHC string). */
  async setPasswordHash(db: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await rowsOf(db, `UPDATE ${USERS} SET password_hash = $2 WHERE id = $1`, [userId, passwordHash]);
  }

  async countMembers(db: EntityManager, organizationId: string): Promise<number> {
    const [row] = await rowsOf<{ count: number }>(db, `SELECT count(*)::int AS count FROM ${MEMBERSHIPS} WHERE organization_id = $1`, [
      organizationId,
    ]);
    return row!.count;
  }

  async findMembership(userId: string, organizationId: string): Promise<Membership | undefined> {
    const [row] = await rowsOf<MembershipRow>(
      this.dataSource,
      `SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE user_id = $1 AND organization_id = $2`,
      [userId, organizationId],
    );
    return row && membershipFromRow(row);
  }

  /** The organization's members with their e-mail, oldest first. */
  async members(organizationId: string): Promise<Member[]> {
    const rows = await rowsOf<{ user_id: string; email: string; role: MemberRole }>(
      this.dataSource,
      `SELECT m.user_id, u.email, m.role FROM ${MEMBERSHIPS} m JOIN ${USERS} u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY m.created_at, m.user_id`,
      [organizationId],
    );
    return rows.map((row) => ({ userId: row.user_id, email: row.email, role: row.role }));
  }

  /** The owner who joined the organization first. */
  async firstOwner(organizationId: string): Promise<Membership | undefined> {
    const [row] = await rowsOf<MembershipRow>(
      this.dataSource,
      `SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE organization_id = $1 AND role = 'owner' ORDER BY created_at, user_id LIMIT 1`,
      [organizationId],
    );
    return row && membershipFromRow(row);
  }
}
