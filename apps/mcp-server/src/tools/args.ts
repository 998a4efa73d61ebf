import { IntersectionType, OmitType } from '@nestjs/swagger';
import {
  CheckInDto,
  CreateItemsDto,
  CreateSlotsDto,
  DuplicateSignupDto,
  ListParticipantsQueryDto,
  RegistrationDto,
  SendRemindersDto,
  StringField,
  UpdateItemDto,
  UpdateSignupDto,
  UpdateSlotDto,
  UuidField,
  WaitlistQueryDto,
} from '#libs/contracts';

/**
 * The arguments of the tools that need more than a REST body: the ids REST carries in its path,
 * beside that body's own fields (so validation and JSON Schema come from the same DTOs).
 */
export class NoArgs {}

export class SignupRef {
  @UuidField({ required: true, description: 'The signup id (from list_signups or create_signup).' }) signupId!: string;
}

export class SlotRef extends SignupRef {
  @UuidField({ required: true, description: 'The slot id (from get_signup or add_slots).' }) slotId!: string;
}

export class ItemRef extends SignupRef {
  @UuidField({ required: true, description: 'The item id (from get_signup or add_items).' }) itemId!: string;
}

export class ParticipantRef extends SignupRef {
  @UuidField({ required: true, description: 'The participant id (from list_participants).' }) participantId!: string;
}

export class EntryRef extends SignupRef {
  @UuidField({ required: true, description: "The waitlist entry id (from list_waitlist, or a participant's waitlist[].id)." })
  entryId!: string;
}

export class SeriesRef {
  @UuidField({ required: true, description: 'The series id (seriesId of a signup that duplicate_signup copied).' }) seriesId!: string;
}

export class UpdateSignupArgs extends IntersectionType(SignupRef, UpdateSignupDto) {}
export class DuplicateSignupArgs extends IntersectionType(SignupRef, DuplicateSignupDto) {}
export class AddSlotsArgs extends IntersectionType(SignupRef, CreateSlotsDto) {}
export class AddItemsArgs extends IntersectionType(SignupRef, CreateItemsDto) {}
export class UpdateSlotArgs extends IntersectionType(SlotRef, UpdateSlotDto) {}
export class UpdateItemArgs extends IntersectionType(ItemRef, UpdateItemDto) {}
export class ListParticipantsArgs extends IntersectionType(SignupRef, ListParticipantsQueryDto) {}
export class ListWaitlistArgs extends IntersectionType(SignupRef, WaitlistQueryDto) {}
export class RegisterParticipantArgs extends IntersectionType(SignupRef, RegistrationDto) {}
export class CheckInArgs extends IntersectionType(ParticipantRef, CheckInDto) {}
export class SendReminderArgs extends IntersectionType(SignupRef, SendRemindersDto) {}

/** Registers the caller: the email is their account's; accounts have no display name, so one may be given. */
export class RegisterSelfArgs extends IntersectionType(SignupRef, OmitType(RegistrationDto, ['name', 'email'] as const)) {
  @StringField({ min: 1, max: 200, description: "The name to sign up under; defaults to the part of the account's email before the @." })
  name?: string;
}
