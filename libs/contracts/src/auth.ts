import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type Tier, TIERS } from '#libs/config';
import { ALL_SCOPES, type Scope } from '#libs/scopes';
import { EMAIL_MAX_LENGTH, EnumField, PatternField, StringField, TimeZoneField } from './validation.js';

export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * The scopes a user may hand an app for an organization, by their role there. Owners and admins
 * run the organization: every scope. A member may read its signups and their numbers and sign
 * themselves up, but not read participants' contact details or change anything. The consent
 * page offers only these, and the edges drop any other scope of a token at every request, so a
 * role taken down takes its tokens down with it.
 */
export const ROLE_SCOPES: Readonly<Record<MemberRole, readonly Scope[]>> = {
  owner: ALL_SCOPES,
  admin: ALL_SCOPES,
  member: ['signups:read', 'analytics:read', 'register:write'],
};
export const KEY_MODES = ['test', 'live'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export class OrganizationSummary {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: TIERS }) tier!: Tier;
  @ApiProperty({
    example: 'America/New_York',
    description: 'The IANA time zone its new signups take unless they are given one (UTC unless set).',
  })
  timeZone!: string;
}

export class OrganizationView extends OrganizationSummary {
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class CredentialView {
  @ApiProperty({ enum: ['api_key', 'oauth'] }) type!: 'api_key' | 'oauth';
  @ApiProperty({ enum: KEY_MODES }) mode!: KeyMode;
  @ApiPropertyOptional() clientId?: string;
}

/** One of the user's organizations, with their role there. */
export class MembershipView {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: TIERS }) tier!: Tier;
  @ApiProperty({ enum: MEMBER_ROLES }) role!: MemberRole;
}

/** GET /me */
export class MeView {
  @ApiProperty({ description: 'The user the credential acts for.' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: OrganizationSummary }) organization!: OrganizationSummary;
  @ApiProperty({ enum: ALL_SCOPES, isArray: true }) scopes!: Scope[];
  @ApiProperty({ type: CredentialView }) credential!: CredentialView;
  @ApiPropertyOptional({
    enum: MEMBER_ROLES,
    description:
      "OAuth tokens only: the user's role in the organization. An API key stands for its organization, not for a person, and has none.",
  })
  role?: MemberRole;
  @ApiPropertyOptional({
    type: MembershipView,
    isArray: true,
    description:
      "The platform's own dashboard only: every organization the user belongs to, oldest membership first, with their role in each (to switch between). Not given to another app, which the user approved for one organization, nor for an API key, which stands for its organization.",
  })
  organizations?: MembershipView[];
}

export interface ApiKeyView {
  id: string;
  name: string | null;
  /** The first characters of the key, for recognising it in lists (never enough to use it). */
  prefix: string;
  mode: KeyMode;
  scopes: Scope[];
  organizationId: string;
  userId: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The whole key, shown once. */
  key: string;
}

export interface UserView {
  id: string;
  email: string;
  organizationId: string;
  role: MemberRole;
  createdAt: string;
}

const SCOPE = `(${ALL_SCOPES.join('|')})`;
const SCOPE_LIST = new RegExp(`^${SCOPE}( ${SCOPE})*$`);

export class AdminCreateOrgDto {
  @StringField({ required: true, min: 1, max: 200 }) name!: string;
  @EnumField(TIERS) tier?: Tier;
  @TimeZoneField() timeZone?: string;
}

/** PATCH /admin/organizations/{id}: the fields given change. */
export class AdminUpdateOrgDto {
  @EnumField(TIERS) tier?: Tier;
  @TimeZoneField() timeZone?: string;
}

export class AdminCreateUserDto {
  @StringField({ required: true, format: 'email', max: EMAIL_MAX_LENGTH }) email!: string;
  @StringField({ required: true, min: 8, max: 200 }) password!: string;
  @StringField({ required: true, max: 64 }) organizationId!: string;
  @EnumField(MEMBER_ROLES) role?: MemberRole;
}

export class AdminCreateApiKeyDto {
  @StringField({ required: true, max: 64 }) organizationId!: string;
  @StringField({ max: 64 }) userId?: string;
  @EnumField(KEY_MODES) mode?: KeyMode;
  @PatternField(SCOPE_LIST, `Must be space-separated scopes from: ${ALL_SCOPES.join(', ')}`) scopes?: string;
  @StringField({ max: 100 }) name?: string;
}

/** API key shape: sgn_test_ or sgn_live_ followed by 32 base62 characters. */
export const API_KEY_PATTERN = /^sgn_(test|live)_[0-9A-Za-z]{32}$/;
