import { ApiProperty } from '@nestjs/swagger';
import { ArrayField, DateTimeField, IntField, StringField, TimeZoneField } from './validation.js';

export class DraftFromDescriptionDto {
  @StringField({
    required: true,
    min: 1,
    max: 10_000,
    example: 'Potluck next Saturday at 5pm at Riverside Park: 2 salads, 3 desserts and drinks',
  })
  description!: string;

  @TimeZoneField({ description: "The IANA time zone the description's dates and times are in; by default the organization's." })
  timeZone?: string;
}

export class DraftItemDto {
  @StringField({ required: true, min: 1, max: 200 }) name!: string;
  @IntField({ min: 1, max: 100_000 }) quantityNeeded?: number;
  @StringField({ max: 1000 }) notes?: string;
}

export class DraftSlotDto {
  @StringField({ required: true, min: 1, max: 200 }) title!: string;
  @DateTimeField() startTime?: string;
  @DateTimeField() endTime?: string;
  @IntField({ min: 1, max: 100_000 }) capacity?: number;
}

/** A signup as a drafter proposes it; nothing is created until the organizer posts it. Also validates an AI provider's answer. */
export class SignupDraftDto {
  @StringField({ required: true, min: 1, max: 200 }) title!: string;
  @StringField({ max: 5000 }) description?: string;
  @DateTimeField() eventDate?: string;
  @StringField({ max: 500 }) location?: string;
  @ArrayField(() => DraftItemDto, { required: true, max: 100 }) items!: DraftItemDto[];
  @ArrayField(() => DraftSlotDto, { required: true, max: 100 }) slots!: DraftSlotDto[];
}

export type SignupDraft = Omit<SignupDraftDto, 'items' | 'slots'> & { items: DraftItemDto[]; slots: DraftSlotDto[] };

/** A draft as the API answers it: with the time zone its written times were read in, to create the signup with. */
export class ZonedSignupDraftView extends SignupDraftDto {
  @ApiProperty({
    example: 'America/New_York',
    description:
      "The IANA time zone the description's dates and times were read in (the one asked for, or the organization's): eventDate and the slots' times are the instants they name there.",
  })
  timeZone!: string;
}

export type ZonedSignupDraft = SignupDraft & { timeZone: string };

export class SignupDraftView {
  @ApiProperty({ type: ZonedSignupDraftView }) draft!: ZonedSignupDraftView;
}
