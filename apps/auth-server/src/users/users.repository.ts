import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { MemberRole } from '#libs/contracts';
import { DATA_SOURCE, type Tx } from '#libs/runtime';
import { MembershipEntity } from './membership.entity.js';
import { UserEntity } from './user.entity.js';

export const USER_EMAIL_CONSTRAINT = 'users_email_key';

@Injectable()
export class UsersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  private manager(tx?: Tx): EntityManager {
    return tx?.manager ?? this.dataSource.manager;
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.manager().findOneBy(UserEntity, { id });
  }

  /** Case-insensitive, as the unique index. */
  findByEmail(email: string): Promise<UserEntity | null> {
    return this.manager().createQueryBuilder(UserEntity, 'u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /** The user's memberships, oldest first. */
  memberships(userId: string): Promise<MembershipEntity[]> {
    return this.manager().find(MembershipEntity, { where: { userId }, order: { createdAt: 'ASC', organizationId: 'ASC' } });
  }

  /** Case-insensitive, as the unique index. */
  async emailTaken(email: string, tx?: Tx): Promise<boolean> {
    return this.manager(tx).createQueryBuilder(UserEntity, 'u').where('lower(u.email) = lower(:email)', { email }).getExists();
  }

  async insert(user: UserEntity, membership: MembershipEntity, tx: Tx): Promise<void> {
    await tx.manager.insert(UserEntity, user);
    await tx.manager.insert(MembershipEntity, membership);
  }

  countMembers(organizationId: string, tx?: Tx): Promise<number> {
    return this.manager(tx).countBy(MembershipEntity, { organizationId });
  }

  findMembership(userId: string, organizationId: string, tx?: Tx): Promise<MembershipEntity | null> {
    return this.manager(tx).findOneBy(MembershipEntity, { userId, organizationId });
  }

  /** The organization's members with their e-mail, oldest first. */
  async members(organizationId: string): Promise<{ userId: string; email: string; role: MemberRole }[]> {
    return this.manager()
      .createQueryBuilder(MembershipEntity, 'm')
      .innerJoin(UserEntity, 'u', 'u.id = m.user_id')
      .select(['m.user_id AS "userId"', 'u.email AS "email"', 'm.role AS "role"'])
      .where('m.organization_id = :organizationId', { organizationId })
      .orderBy('m.created_at', 'ASC')
      .addOrderBy('m.user_id', 'ASC')
      .getRawMany();
  }

  /** The owner who joined the organization first. */
  firstOwner(organizationId: string, tx?: Tx): Promise<MembershipEntity | null> {
    return this.manager(tx).findOne(MembershipEntity, {
      where: { organizationId, role: 'owner' },
      order: { createdAt: 'ASC', userId: 'ASC' },
    });
  }
}
