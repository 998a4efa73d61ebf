import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  /** As given; unique case-insensitively (index on lower(email)). */
  @Column({ type: 'text' }) email!: string;
  /** argon2id PHC string. */
  @Column({ type: 'text', name: 'password_hash' }) passwordHash!: string;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
