import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KeyMode } from '#libs/contracts';
import type { Scope } from '#libs/scopes';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'text', name: 'organization_id' }) organizationId!: string;
  @Column({ type: 'text', name: 'user_id' }) userId!: string;
  @Column({ type: 'text', nullable: true }) name!: string | null;
  @Column({ type: 'text' }) mode!: KeyMode;
  /** null: every scope. */
  @Column({ type: 'text', array: true, nullable: true }) scopes!: Scope[] | null;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  @Column({ type: 'text', name: 'key_hash' }) keyHash!: string;
  /** The first 12 characters of the key, for display. */
  @Column({ type: 'text' }) prefix!: string;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
