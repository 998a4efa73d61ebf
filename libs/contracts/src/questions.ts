import { ApiProperty } from '@nestjs/swagger';
import { BoolField, EnumField, NumberField, type OnlyFor, StringField, StringListField, UuidField } from './validation.js';

export const QUESTION_TYPES = ['short_text', 'long_text', 'single_choice', 'multiple_choice', 'yes_no', 'number'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** The most questions a signup asks. */
export const MAX_QUESTIONS = 50;
/** The longest answer to each text question. */
export const TEXT_ANSWER_MAX_LENGTH = { short_text: 500, long_text: 5000 } as const;

export function isChoiceQuestion(type: unknown): type is 'single_choice' | 'multiple_choice' {
  return type === 'single_choice' || type === 'multiple_choice';
}

const CHOICES: OnlyFor = {
  applies: (question) => isChoiceQuestion((question as QuestionDto).type),
  what: 'single_choice and multiple_choice questions',
  required: true,
};
const BOUNDS: OnlyFor = { applies: (question) => (question as QuestionDto).type === 'number', what: 'number questions' };

/** One question of a signup's form, as POST and PATCH /signups take it. */
export class QuestionDto {
  @UuidField({ description: "On PATCH, an existing question's id keeps that question and its answers; omit it for a new question." })
  id?: string;
  @EnumField(QUESTION_TYPES, { required: true }) type!: QuestionType;
  @StringField({ required: true, min: 1, max: 500, example: 'T-shirt size' }) label!: string;
  @BoolField({ description: 'An answer is needed to register. Defaults to false.' }) required?: boolean;
  @StringListField({
    min: 1,
    max: 50,
    itemMax: 200,
    only: CHOICES,
    nullable: true,
    description: 'The choices, for single_choice and multiple_choice only.',
  })
  options?: string[] | null;
  @NumberField({ only: BOUNDS, nullable: true, description: 'The smallest answer accepted, for number questions only.' }) min?:
    number | null;
  @NumberField({ only: BOUNDS, nullable: true, atLeast: 'min', description: 'The largest answer accepted, for number questions only.' })
  max?: number | null;
}

/** A question as every signup read shows it. */
export class QuestionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: QUESTION_TYPES }) type!: QuestionType;
  @ApiProperty() label!: string;
  @ApiProperty() required!: boolean;
  @ApiProperty({ type: String, isArray: true, nullable: true, description: 'The choices of a choice question; null otherwise.' })
  options!: string[] | null;
  @ApiProperty({ type: 'number', nullable: true }) min!: number | null;
  @ApiProperty({ type: 'number', nullable: true }) max!: number | null;
}

export type QuestionInput = Omit<QuestionDto, never>;
