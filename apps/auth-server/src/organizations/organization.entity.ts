import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Tier } from '#libs/config';

@Entity({ name: 'organizations' })
export class OrganizationEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) slug!: string;
  @Column({ type: 'text' }) tier!: Tier;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}
