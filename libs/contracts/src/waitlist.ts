import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto, PageQueryDto } from './pagination.js';
import { BoolField, EnumField, IntField, UuidField } from './validation.js';

/** auto: a freed place goes to the first in line at once; offer: it is held for them for offerMinutes. */
export const WAITLIST_MODES = ['auto', 'offer'] as const;
export type WaitlistMode = (typeof WAITLIST_MODES)[number];

export const OFFER_MINUTES = { min: 5, max: 10_080, default: 1440 } as const;

/** What a line is for: a slot, an item, or the signup itself (its maxParticipants). */
export const WAITLIST_TYPES = ['signup', 'slot', 'item'] as const;
export type WaitlistType = (typeof WAITLIST_TYPES)[number];

/** waiting: in line; offered: a place is held for them until offerExpiresAt. */
export const WAITLIST_STATES = ['waiting', 'offered'] as const;
export type WaitlistState = (typeof WAITLIST_STATES)[number];

/** The waitlist settings of a signup, on create (every field optional) and PATCH (the fields given change). */
export class WaitlistSettingsDto {
  @BoolField({ description: 'Whether a registration that does not fit joins a line instead of failing. Default false.' })
  enabled?: boolean;

  @EnumField(WAITLIST_MODES, { description: 'auto (default): a freed place is given at once; offer: it is held for offerMinutes.' })
  mode?: WaitlistMode;

  @IntField({ min: OFFER_MINUTES.min, max: OFFER_MINUTES.max, description: 'How long an offer holds a place (offer mode). Default 1440.' })
  offerMinutes?: number;
}

export type WaitlistSettingsInput = { enabled?: boolean; mode?: WaitlistMode; offerMinutes?: number };

export class WaitlistSettingsView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: WAITLIST_MODES }) mode!: WaitlistMode;
  @ApiProperty({ type: 'integer' }) offerMinutes!: number;
}

/** A participant's place in one line. */
export class WaitlistEntryView {
  @ApiProperty({ format: 'uuid', description: 'The entry: what accept, leave, promote and remove name.' }) id!: string;
  @ApiProperty({ enum: WAITLIST_TYPES, description: 'signup: the line of the signup itself (maxParticipants reached).' })
  type!: WaitlistType;
  @ApiProperty({ format: 'uuid', description: 'The slot, item or signup id.' }) targetId!: string;
  @ApiProperty({ type: 'integer' }) quantity!: number;
  @ApiProperty({ enum: WAITLIST_STATES }) state!: WaitlistState;
  @ApiProperty({ type: 'integer', nullable: true, description: '1 for the next in line; null once offered.' }) position!: number | null;
  @ApiProperty({ format: 'date-time' }) joinedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) offeredAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) offerExpiresAt!: string | null;
}

/** An entry of a signup's waitlist with who holds it, as the organizer reads it. */
export class WaitlistedParticipantView extends WaitlistEntryView {
  @ApiProperty({ format: 'uuid' }) participantId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

export class WaitlistPageView extends PageMetaDto {
  @ApiProperty({ type: WaitlistedParticipantView, isArray: true }) data!: WaitlistedParticipantView[];
}

/** GET /signups/{id}/waitlist */
export class WaitlistQueryDto extends PageQueryDto {
  @EnumField(WAITLIST_TYPES, { description: 'Only this kind of line.' }) type?: WaitlistType;
  @UuidField({ description: 'Only the line of this slot, item or signup.' }) targetId?: string;
}

export type WaitlistQuery = { limit?: number; cursor?: string; type?: WaitlistType; targetId?: string };

/** A selection that joined a line at registration. */
export class WaitlistedSelectionView {
  @ApiProperty({ enum: WAITLIST_TYPES }) type!: WaitlistType;
  @ApiProperty({ format: 'uuid', description: 'The slot, item or signup id.' }) id!: string;
  @ApiProperty({ format: 'uuid' }) participantId!: string;
  @ApiProperty({ type: 'integer', description: '1 for the next in line.' }) position!: number;
}
