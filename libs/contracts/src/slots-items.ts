import { ApiProperty } from '@nestjs/swagger';
import { ArrayField, DateTimeField, IntField, StringField } from './validation.js';

export const MAX_CAPACITY = 100_000;

export class CreateSlotDto {
  @StringField({ required: true, min: 1, max: 200, example: '9:00 – 11:00 setup' }) title!: string;
  @StringField({ max: 2000 }) description?: string;
  @DateTimeField() startTime?: string;
  @DateTimeField() endTime?: string;
  @IntField({ required: true, min: 1, max: MAX_CAPACITY, description: 'Places in the slot.' }) capacity!: number;
}

/** POST /signups/{id}/slots with several slots at once. */
export class CreateSlotsDto {
  @ArrayField(() => CreateSlotDto, { required: true, max: 100 }) slots!: CreateSlotDto[];
}

export class UpdateSlotDto {
  @StringField({ min: 1, max: 200 }) title?: string;
  @StringField({ max: 2000, nullable: true }) description?: string | null;
  @DateTimeField({ nullable: true }) startTime?: string | null;
  @DateTimeField({ nullable: true }) endTime?: string | null;
  @IntField({ min: 1, max: MAX_CAPACITY, description: 'May not drop below taken (409 conflict).' }) capacity?: number;
}

export class CreateItemDto {
  @StringField({ required: true, min: 1, max: 200, example: 'Potato salad' }) name!: string;
  @StringField({ max: 2000 }) notes?: string;
  @IntField({ required: true, min: 1, max: MAX_CAPACITY, description: 'How many are needed.' }) quantityNeeded!: number;
}

/** POST /signups/{id}/items with several items at once. */
export class CreateItemsDto {
  @ArrayField(() => CreateItemDto, { required: true, max: 100 }) items!: CreateItemDto[];
}

export class UpdateItemDto {
  @StringField({ min: 1, max: 200 }) name?: string;
  @StringField({ max: 2000, nullable: true }) notes?: string | null;
  @IntField({ min: 1, max: MAX_CAPACITY, description: 'May not drop below quantityClaimed (409 conflict).' }) quantityNeeded?: number;
}

export type CreateSlotInput = Omit<CreateSlotDto, never>;
export type UpdateSlotInput = Omit<UpdateSlotDto, never>;
export type CreateItemInput = Omit<CreateItemDto, never>;
export type UpdateItemInput = Omit<UpdateItemDto, never>;

export class SlotView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startTime!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endTime!: string | null;
  @ApiProperty({ type: 'integer' }) capacity!: number;
  @ApiProperty({ type: 'integer' }) taken!: number;
  @ApiProperty({ type: 'integer' }) remaining!: number;
  @ApiProperty({ format: 'date-time', description: 'When the slot last changed: its fields, or what is taken of it.' }) updatedAt!: string;
  @ApiProperty({ description: "The signup's mode: false for sandbox data." }) livemode!: boolean;
}

export class ItemView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) notes!: string | null;
  @ApiProperty({ type: 'integer' }) quantityNeeded!: number;
  @ApiProperty({ type: 'integer' }) quantityClaimed!: number;
  @ApiProperty({ type: 'integer' }) remaining!: number;
  @ApiProperty({ description: "The signup's mode: false for sandbox data." }) livemode!: boolean;
}

export class SlotListView {
  @ApiProperty({ type: SlotView, isArray: true }) data!: SlotView[];
}

export class ItemListView {
  @ApiProperty({ type: ItemView, isArray: true }) data!: ItemView[];
}
