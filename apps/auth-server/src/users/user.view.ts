import type { UserView } from '#libs/contracts';
import type { MembershipEntity } from './membership.entity.js';
import type { UserEntity } from './user.entity.js';

export function toUserView(user: UserEntity, membership: MembershipEntity): UserView {
  return { id: user.id, email: user.email, organizationId: membership.organizationId, role: membership.role, createdAt: user.createdAt.toISOString() };
}
