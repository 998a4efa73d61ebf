import type { UserView } from '#libs/contracts';
import type { Membership, User } from './user.js';

export function toUserView(user: User, membership: Membership): UserView {
  return {
    id: user.id,
    email: user.email,
    organizationId: membership.organizationId,
    role: membership.role,
    createdAt: user.createdAt.toISOString(),
  };
}
