import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMetaDto, PageQueryDto, UpdatedSinceField } from './pagination.js';
import { MAX_QUESTIONS, QuestionDto, QuestionView } from './questions.js';
import { ItemView, SlotView } from './slots-items.js';
import {
  ArrayField,
  BoolField,
  DateTimeField,
  EnumField,
  IntField,
  NestedField,
  StringField,
  TimeZoneField,
  UuidField,
} from './validation.js';
import { WaitlistSettingsDto, type WaitlistSettingsInput, WaitlistSettingsView } from './waitlist.js';

export const SIGNUP_STATUSES = ['draft', 'published', 'closed'] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];

/** How many hours before its event a signup's participants get the automatic reminder: 0 (none) to 336 (two weeks). */
export const REMINDER_HOURS_BEFORE = { min: 0, max: 336, default: 24 } as const;

export class CreateSignupDto {
  @StringField({ required: true, min: 1, max: 200, example: 'Neighbourhood potluck' })
  title!: string;

  @StringField({ max: 5000 })
  description?: string;

  @DateTimeField({ required: true, example: '2026-12-24T18:00:00Z' })
  eventDate!: string;

  @TimeZoneField({ description: "The IANA time zone its dates and times are shown in to people; by default the organization's." })
  timeZone?: string;

  @StringField({ max: 500 })
  location?: string;

  @IntField({ min: 1, max: 100000 })
  maxParticipants?: number;

  @BoolField()
  requiresPhone?: boolean;

  @DateTimeField({ description: 'Registrations stop at this instant.' })
  signupCloseDate?: string;

  @IntField({
    min: REMINDER_HOURS_BEFORE.min,
    max: REMINDER_HOURS_BEFORE.max,
    description: 'How many hours before the event participants get the automatic reminder (SMS and email); 0: none. Default 24.',
  })
  reminderHoursBefore?: number;

  @NestedField(() => WaitlistSettingsDto, { description: 'Off unless enabled.' })
  waitlist?: WaitlistSettingsDto;

  @ArrayField(() => QuestionDto, { max: MAX_QUESTIONS, description: 'Asked on registration, in this order.' })
  questions?: QuestionDto[];
}

/** PATCH body: every field optional; null clears a nullable field. */
export class UpdateSignupDto {
  @StringField({ min: 1, max: 200 })
  title?: string;

  @StringField({ max: 5000, nullable: true })
  description?: string | null;

  @DateTimeField()
  eventDate?: string;

  @TimeZoneField({ description: 'The IANA time zone its dates and times are shown in to people.' })
  timeZone?: string;

  @StringField({ max: 500, nullable: true })
  location?: string | null;

  @IntField({ min: 1, max: 100000, nullable: true })
  maxParticipants?: number | null;

  @BoolField()
  requiresPhone?: boolean;

  @DateTimeField({ nullable: true })
  signupCloseDate?: string | null;

  @IntField({
    min: REMINDER_HOURS_BEFORE.min,
    max: REMINDER_HOURS_BEFORE.max,
    description:
      'How many hours before the event participants get the automatic reminder (SMS and email); 0: none. ' +
      'A reminder already sent for the event date is not sent again.',
  })
  reminderHoursBefore?: number;

  @NestedField(() => WaitlistSettingsDto, { description: 'The fields given change; the others stay.' })
  waitlist?: WaitlistSettingsDto;

  @ArrayField(() => QuestionDto, {
    max: MAX_QUESTIONS,
    description:
      'Replaces the questions: one with the id of an existing question keeps that question and its answers, one without an id is new, ' +
      'and a question left out is no longer asked (its answers stay on the participants).',
  })
  questions?: QuestionDto[];
}

export class ListSignupsQueryDto extends PageQueryDto {
  @EnumField(SIGNUP_STATUSES, { description: 'Only signups in this status.' })
  status?: SignupStatus;

  @UuidField({ description: 'Only the signups of this series (POST /signups/{id}/duplicate).' })
  seriesId?: string;

  @UpdatedSinceField()
  updated_since?: string;
}

export type CreateSignupInput = Omit<CreateSignupDto, 'waitlist'> & { waitlist?: WaitlistSettingsInput };
export type UpdateSignupInput = Omit<UpdateSignupDto, 'waitlist'> & { waitlist?: WaitlistSettingsInput };
export type ListSignupsInput = { limit?: number; cursor?: string; status?: SignupStatus; seriesId?: string; updated_since?: string };

/** The signup as every surface returns it (slots and items only on the single read and the edit). */
export class SignupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() slug!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: SIGNUP_STATUSES }) status!: SignupStatus;
  @ApiProperty({ format: 'date-time' }) eventDate!: string;
  @ApiProperty({
    example: 'America/New_York',
    description:
      "The IANA time zone its dates and times are shown in to people (pages, texts, emails): the organization's when it was created, unless given.",
  })
  timeZone!: string;
  @ApiProperty({ type: String, nullable: true }) location!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) maxParticipants!: number | null;
  @ApiProperty() requiresPhone!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) signupCloseDate!: string | null;
  @ApiProperty({
    type: 'integer',
    minimum: REMINDER_HOURS_BEFORE.min,
    maximum: REMINDER_HOURS_BEFORE.max,
    description: 'How many hours before the event participants get the automatic reminder (SMS and email); 0: none.',
  })
  reminderHoursBefore!: number;
  @ApiProperty({ type: WaitlistSettingsView }) waitlist!: WaitlistSettingsView;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The series it belongs to: the signup a duplication copied and its copies share it (POST /signups/{id}/duplicate).',
  })
  seriesId!: string | null;
  @ApiProperty() organizationId!: string;
  @ApiProperty({ type: 'integer' }) participantCount!: number;
  @ApiProperty({ format: 'uri' }) publicUrl!: string;
  @ApiProperty() livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) publishedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closedAt!: string | null;
  @ApiProperty({ type: QuestionView, isArray: true, description: 'Asked on registration, in this order.' }) questions!: QuestionView[];
  @ApiPropertyOptional({ type: SlotView, isArray: true, description: 'On GET and PATCH /signups/{id} only.' }) slots?: SlotView[];
  @ApiPropertyOptional({ type: ItemView, isArray: true, description: 'On GET and PATCH /signups/{id} only.' }) items?: ItemView[];
}

export class SignupPageView extends PageMetaDto {
  @ApiProperty({ type: SignupView, isArray: true }) data!: SignupView[];
}
