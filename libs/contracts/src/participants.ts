import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMetaDto, PageQueryDto, UpdatedSinceField } from './pagination.js';
import { QuestionView } from './questions.js';
import type { SignupStatus } from './signups.js';
import { ItemView, SlotView } from './slots-items.js';
import {
  answerSchema,
  AnswersField,
  type AnswerValue,
  ArrayField,
  EMAIL_MAX_LENGTH,
  EnumField,
  IntField,
  PhoneField,
  StringField,
  UuidField,
} from './validation.js';
import { WaitlistedSelectionView, WaitlistEntryView, WaitlistSettingsView } from './waitlist.js';

export const SELECTION_TYPES = ['slot', 'item'] as const;
export type SelectionType = (typeof SELECTION_TYPES)[number];
/** A confirmation token: `cnf_` followed by 32 base62 characters, as the signups-service issues them. */
export const CONFIRMATION_TOKEN_PATTERN = /^cnf_[0-9A-Za-z]{32}$/;

/**
 * The requiresPhone rule, checked by the signups-service and by the gateway's pages before they ask
 * it: a signup that requires a phone takes no registration that is left without one.
 */
export function missingRequiredPhone(signup: { requiresPhone: boolean }, hasPhone: boolean): boolean {
  return signup.requiresPhone && !hasPhone;
}

/**
 * confirmed: holds what it asked for (or asked for nothing); waitlisted: waits in a line and holds
 * nothing yet; offered: a place is held for it until the offer expires; cancelled: by the
 * participant or the organizer; attended, no_show: set by the organizer on the day.
 */
export const PARTICIPANT_STATUSES = ['confirmed', 'waitlisted', 'offered', 'cancelled', 'attended', 'no_show'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

export const FAILURE_REASONS = ['full', 'not_found'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export class SelectionDto {
  @EnumField(SELECTION_TYPES, { required: true }) type!: SelectionType;
  @UuidField({ required: true, description: 'The slot or item id.' }) id!: string;
  @IntField({ min: 1, max: 1000, description: 'Defaults to 1.' }) quantity?: number;
}

/** POST /signups/{id}/participants */
export class RegistrationDto {
  @StringField({ required: true, min: 1, max: 200, example: 'Ana Lima' }) name!: string;
  @StringField({ required: true, format: 'email', max: EMAIL_MAX_LENGTH, example: 'ana@example.com' }) email!: string;
  @PhoneField({ description: 'Required when the signup has requiresPhone.' }) phone?: string;
  @ArrayField(() => SelectionDto, { required: true, max: 50, description: 'May be empty.' }) selections!: SelectionDto[];
  @AnswersField({ description: "Answers to the signup's questions, keyed by question id." }) answers?: Record<string, AnswerValue>;
}

/** PATCH /registrations/{confirmationToken}: the participant changes their own registration. */
export class UpdateRegistrationDto {
  @StringField({ min: 1, max: 200 }) name?: string;
  @PhoneField({ nullable: true }) phone?: string | null;
  @ArrayField(() => SelectionDto, { max: 50, description: 'Replaces every selection, all or nothing.' }) selections?: SelectionDto[];
  @AnswersField({
    clearable: true,
    description: 'Merged into the answers given before: each replaces its answer, null clears an optional one.',
  })
  answers?: Record<string, AnswerValue | null>;
}

/** PATCH /signups/{id}/participants/{participantId}: the organizer edits a registration. */
export class UpdateParticipantDto extends UpdateRegistrationDto {
  @StringField({ format: 'email', max: EMAIL_MAX_LENGTH }) email?: string;
}

export type SelectionInput = { type: SelectionType; id: string; quantity?: number };
export type RegistrationInput = {
  name: string;
  email: string;
  phone?: string;
  selections: SelectionInput[];
  answers?: Record<string, AnswerValue>;
};
export type UpdateRegistrationInput = {
  name?: string;
  phone?: string | null;
  selections?: SelectionInput[];
  answers?: Record<string, AnswerValue | null>;
};
export type UpdateParticipantInput = UpdateRegistrationInput & { email?: string };

export class SelectionView {
  @ApiProperty({ enum: SELECTION_TYPES }) type!: SelectionType;
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer' }) quantity!: number;
}

export class ParticipantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) phone!: string | null;
  @ApiProperty({ type: SelectionView, isArray: true }) selections!: SelectionView[];
  @ApiProperty({ type: 'object', additionalProperties: answerSchema(), description: 'The answers given, keyed by question id.' })
  answers!: Record<string, AnswerValue>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) remindedAt!: string | null;
  @ApiProperty({ enum: PARTICIPANT_STATUSES }) status!: ParticipantStatus;
  @ApiProperty({ format: 'date-time', description: 'When status last changed.' }) statusChangedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelledAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the organizer checked them in (status attended).' })
  checkedInAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the organizer marked them a no-show.' })
  noShowAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Hours served, from check-in on; null until checked in.' })
  hoursServed!: number | null;
  @ApiProperty({ type: WaitlistEntryView, isArray: true, description: 'The lines this participant is in, with their positions.' })
  waitlist!: WaitlistEntryView[];
  @ApiProperty({ description: "The signup's mode: false for sandbox data." }) livemode!: boolean;
}

/** GET /signups/{id}/participants */
export class ListParticipantsQueryDto extends PageQueryDto {
  @EnumField(PARTICIPANT_STATUSES, { description: 'Only participants in this status. Without it, every status but cancelled.' })
  status?: ParticipantStatus;

  @UpdatedSinceField()
  updated_since?: string;
}

export type ListParticipantsInput = { limit?: number; cursor?: string; status?: ParticipantStatus; updated_since?: string };

export class ParticipantPageView extends PageMetaDto {
  @ApiProperty({ type: ParticipantView, isArray: true }) data!: ParticipantView[];
}

export class ConfirmedSelectionView {
  @ApiProperty({ enum: SELECTION_TYPES }) type!: SelectionType;
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) participantId!: string;
}

export class FailedSelectionView {
  @ApiProperty({ enum: SELECTION_TYPES }) type!: SelectionType;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: FAILURE_REASONS }) reason!: FailureReason;
  @ApiProperty() message!: string;
}

/** The answer to a registration: what was confirmed, what failed, and the token to manage it. */
export class RegistrationResultView {
  @ApiProperty({ description: 'true when nothing failed' }) success!: boolean;
  @ApiPropertyOptional({ description: 'cnf_…: lets the participant edit or cancel later. Absent when nothing was stored.' })
  confirmationToken?: string;
  @ApiProperty({ type: ConfirmedSelectionView, isArray: true }) confirmed!: ConfirmedSelectionView[];
  @ApiProperty({ type: FailedSelectionView, isArray: true }) failed!: FailedSelectionView[];
  @ApiProperty({
    type: WaitlistedSelectionView,
    isArray: true,
    description: "Selections that did not fit and joined their line (the signup's waitlist is on); type signup: the signup itself is full.",
  })
  waitlisted!: WaitlistedSelectionView[];
}

/** A signup as anyone may see it: what remains, never who signed up. */
export class PublicSignupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() slug!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: ['published', 'closed'] }) status!: Extract<SignupStatus, 'published' | 'closed'>;
  @ApiProperty({ format: 'date-time' }) eventDate!: string;
  @ApiProperty({ example: 'America/New_York', description: 'The IANA time zone its dates and times are shown in.' }) timeZone!: string;
  @ApiProperty({ type: String, nullable: true }) location!: string | null;
  @ApiProperty() requiresPhone!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) signupCloseDate!: string | null;
  @ApiProperty({ description: 'Whether a registration would be accepted now.' }) acceptingRegistrations!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Places left under maxParticipants, or null without a limit.' })
  spotsRemaining!: number | null;
  @ApiProperty({ format: 'uri' }) publicUrl!: string;
  @ApiProperty({ description: 'false for a sandbox signup.' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the signup itself last changed (not its participants).' }) updatedAt!: string;
  @ApiProperty({ type: WaitlistSettingsView }) waitlist!: WaitlistSettingsView;
  @ApiProperty({ type: SlotView, isArray: true }) slots!: SlotView[];
  @ApiProperty({ type: ItemView, isArray: true }) items!: ItemView[];
  @ApiProperty({ type: QuestionView, isArray: true, description: 'Asked on registration, in this order.' }) questions!: QuestionView[];
}

/** GET /registrations/{confirmationToken}: the participant's own registration and the signup it is for. */
export class RegistrationView {
  @ApiProperty({ type: ParticipantView }) participant!: ParticipantView;
  @ApiProperty({ type: PublicSignupView }) signup!: PublicSignupView;
  @ApiProperty({
    format: 'uri',
    description:
      "The participant's own calendar (…/calendars/pcal_….ics), to download or subscribe to: a read-only address, which never opens " +
      'or changes the registration, so a calendar service may keep it.',
  })
  calendarUrl!: string;
}

const selection = (s: SelectionDto): SelectionInput => ({
  type: s.type,
  id: s.id.toLowerCase(),
  ...(s.quantity !== undefined && { quantity: s.quantity }),
});

/** A validated registration body as the bus payload (plain data, ids lower-cased). */
export function toRegistrationInput(dto: RegistrationDto): RegistrationInput {
  return {
    name: dto.name,
    email: dto.email,
    ...(dto.phone !== undefined && { phone: dto.phone }),
    selections: dto.selections.map(selection),
    ...(dto.answers !== undefined && { answers: dto.answers }),
  };
}

/** A validated registration edit as the bus payload. */
export function toUpdateRegistrationInput(dto: UpdateRegistrationDto): UpdateRegistrationInput {
  return {
    ...(dto.name !== undefined && { name: dto.name }),
    ...(dto.phone !== undefined && { phone: dto.phone }),
    ...(dto.selections !== undefined && { selections: dto.selections.map(selection) }),
    ...(dto.answers !== undefined && { answers: dto.answers }),
  };
}
