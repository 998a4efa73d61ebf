import { ApiProperty } from '@nestjs/swagger';

class FillRateView {
  @ApiProperty({ type: 'integer', description: 'Total places across slots and items.' }) capacity!: number;
  @ApiProperty({ description: 'Share taken, 0 to 1 (0 when there is no capacity).' }) ratio!: number;
}

class SlotStatView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer' }) capacity!: number;
  @ApiProperty({ type: 'integer' }) registered!: number;
  @ApiProperty() ratio!: number;
}

class ItemStatView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) needed!: number;
  @ApiProperty({ type: 'integer' }) claimed!: number;
  @ApiProperty() ratio!: number;
}

class GapView {
  @ApiProperty({ enum: ['slot', 'item'] }) kind!: 'slot' | 'item';
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: 'integer' }) shortBy!: number;
}

class ResponseTimeView {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) firstRegistrationAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastRegistrationAt!: string | null;
  @ApiProperty({ type: Number, nullable: true }) averageHoursBetweenRegistrations!: number | null;
}

/** GET /signups/{id}/analytics, computed live. */
export class AnalyticsView {
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty({ type: 'integer' }) participantCount!: number;
  @ApiProperty({ type: 'integer', description: 'Places and quantities committed across all selections.' }) quantityCommitted!: number;
  @ApiProperty({ type: FillRateView }) fillRate!: FillRateView;
  @ApiProperty({ type: SlotStatView, isArray: true }) slots!: SlotStatView[];
  @ApiProperty({ type: ItemStatView, isArray: true }) items!: ItemStatView[];
  @ApiProperty({ type: GapView, isArray: true, description: 'Slots and items still short, most short first.' }) gaps!: GapView[];
  @ApiProperty({ type: ResponseTimeView }) responseTime!: ResponseTimeView;
}
