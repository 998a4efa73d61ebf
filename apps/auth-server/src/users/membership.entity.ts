import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MemberRole } from '#libs/contracts';

@Entity({ name: 'memberships' })
export class MembershipEntity {
  @PrimaryColumn({ type: 'text', name: 'user_id' }) userId!: string;
  @PrimaryColumn({ type: 'text', name: 'organization_id' }) organizationId!: string;
  @Column({ type: 'text' }) role!: MemberRole;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
