import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateBy, ValidateIf } from 'class-validator';
import { type FieldError, ProblemError } from '#libs/problem';
import { SignupView } from './signups.js';
import { DateTimeField, EnumField, IntField, isDateTime, NestedField } from './validation.js';

/** The most signups one duplication creates (a year of weekly events). */
export const MAX_SERIES_COPIES = 52;

export const RECURRENCE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

/** The longest step of a recurrence: a year of days, a year of weeks, or a year of months. */
export const MAX_RECURRENCE_INTERVAL = { daily: 366, weekly: 52, monthly: 12 } as const;

/** A list of 1..MAX_SERIES_COPIES distinct RFC 3339 date-times. */
function DateTimeListField(opts: { description: string }): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    IsArray({ message: 'Expected array' }),
    ArrayMinSize(1, { message: 'Must not be empty' }),
    ArrayMaxSize(MAX_SERIES_COPIES, { message: `Must have at most ${MAX_SERIES_COPIES} entries` }),
    ValidateBy(
      { name: 'dateTimes', validator: { validate: (value: unknown) => !Array.isArray(value) || value.every(isDateTime) } },
      { message: 'Each entry must be an ISO 8601 date-time with a time zone, e.g. 2026-06-01T18:00:00Z' },
    ),
    ValidateBy(
      { name: 'distinct', validator: { validate: (value: unknown) => !Array.isArray(value) || new Set(value).size === value.length } },
      { message: 'Entries must be distinct' },
    ),
    ApiProperty({
      required: false,
      description: opts.description,
      type: 'array',
      items: { type: 'string', format: 'date-time' },
      minItems: 1,
      maxItems: MAX_SERIES_COPIES,
      uniqueItems: true,
    } as ApiPropertyOptions),
  );
}

/**
 * A repeating rule with an end (a small structured form of RFC 5545's RRULE): every `interval`
 * days, weeks or months after the signup's own event, at the same wall-clock time in its time
 * zone, until an instant (inclusive) or for `count` copies; exactly one of the two.
 */
export class RecurrenceDto {
  @EnumField(RECURRENCE_FREQUENCIES, {
    required: true,
    description: 'daily, weekly or monthly (same day of the month; months without it are skipped).',
  })
  frequency!: RecurrenceFrequency;

  @IntField({ min: 1, max: MAX_RECURRENCE_INTERVAL.daily, description: 'Every so many days, weeks or months (default 1; at most a year).' })
  interval?: number;

  @DateTimeField({ description: 'The last instant a copy may fall on (inclusive). Exactly one of until and count.' })
  until?: string;

  @IntField({
    min: 1,
    max: MAX_SERIES_COPIES,
    description: `How many copies (at most ${MAX_SERIES_COPIES}). Exactly one of until and count.`,
  })
  count?: number;
}

/** POST /signups/{id}/duplicate: exactly one of eventDate, eventDates and recurrence. */
export class DuplicateSignupDto {
  @DateTimeField({
    description: 'One copy at this event date. Exactly one of eventDate, eventDates and recurrence.',
    example: '2027-01-07T18:00:00Z',
  })
  eventDate?: string;

  @DateTimeListField({
    description: `One copy per date (at most ${MAX_SERIES_COPIES}, distinct). Exactly one of eventDate, eventDates and recurrence.`,
  })
  eventDates?: string[];

  @NestedField(() => RecurrenceDto, {
    description: "Copies on a repeating rule after the signup's own event. Exactly one of eventDate, eventDates and recurrence.",
  })
  recurrence?: RecurrenceDto;
}

export type RecurrenceInput = Pick<RecurrenceDto, 'frequency' | 'interval' | 'until' | 'count'>;
export type DuplicateSignupInput = { eventDate?: string; eventDates?: string[]; recurrence?: RecurrenceInput };

/** What a duplication asks for, once its exactly-one-of is checked. */
export type DuplicationRequest =
  { kind: 'dates'; path: 'eventDate' | 'eventDates'; dates: string[] } | { kind: 'recurrence'; rule: RecurrenceInput };

const CHOICES = ['eventDate', 'eventDates', 'recurrence'] as const;

/**
 * The one way of giving dates a valid body chose: none or several is a 422 on each field given
 * (on eventDate when none is); a recurrence needs exactly one of until and count, and an
 * interval within a year of its frequency.
 */
export function duplicationRequestOf(input: DuplicateSignupInput): DuplicationRequest {
  const given = CHOICES.filter((name) => input[name] !== undefined);
  const message = 'Give exactly one of eventDate, eventDates and recurrence';
  if (given.length !== 1)
    throw ProblemError.validation((given.length === 0 ? ['eventDate' as const] : given).map((path) => ({ path, message })));
  if (input.eventDate !== undefined) return { kind: 'dates', path: 'eventDate', dates: [input.eventDate] };
  if (input.eventDates !== undefined) return { kind: 'dates', path: 'eventDates', dates: input.eventDates };
  const rule = input.recurrence!;
  const errors: FieldError[] = [];
  if ((rule.until === undefined) === (rule.count === undefined)) {
    errors.push({ path: 'recurrence.until', message: 'Give exactly one of until and count' });
  }
  const most = MAX_RECURRENCE_INTERVAL[rule.frequency];
  if (rule.interval !== undefined && rule.interval > most) {
    errors.push({ path: 'recurrence.interval', message: `Must be at most ${most} for ${rule.frequency}` });
  }
  if (errors.length > 0) throw ProblemError.validation(errors);
  return { kind: 'recurrence', rule };
}

/** The signups a duplication created, or a series act changed, by event date. */
export class SignupListView {
  @ApiProperty({ type: SignupView, isArray: true }) data!: SignupView[];
}
