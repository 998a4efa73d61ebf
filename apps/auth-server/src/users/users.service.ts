import { Injectable } from '@nestjs/common';
import { type AdminCreateUserDto, newPrefixedId, type UserView } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import { organizationNotFound } from '../organizations/organization.errors.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import { hashPassword } from './password.js';
import { toUserView } from './user.view.js';
import { UsersRepository } from './users.repository.js';

function emailTaken(): ProblemError {
  return new ProblemError('conflict', 'A user with this email already exists.');
}

@Injectable()
export class UsersService {
  constructor(
    private readonly outbox: Outbox,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** Creates a user as a member of one organization; its first member becomes owner unless a role is given. */
  async create(input: AdminCreateUserDto): Promise<UserView> {
    const passwordHash = await hashPassword(input.password);
    return this.outbox.transaction(async (tx) => {
      const org = await this.organizations.lockById(tx.manager, input.organizationId);
      if (!org) throw organizationNotFound(input.organizationId);
      const role = input.role ?? ((await this.users.countMembers(tx.manager, org.id)) === 0 ? 'owner' : 'member');
      const now = new Date();
      // An operator vouches for the addresses it enters (the demo account among them): they need no link.
      const user = { id: newPrefixedId('usr'), email: input.email, passwordHash, emailVerifiedAt: now, createdAt: now };
      const membership = { userId: user.id, organizationId: org.id, role, createdAt: now };
      if (!(await this.users.insert(tx.manager, user, membership))) throw emailTaken();
      return toUserView(user, membership);
    });
  }
}
