import 'reflect-metadata';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type, plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID,
  Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested, validate, type ValidationError,
} from 'class-validator';
import { ProblemError, type FieldError } from '#libs/problem';

/**
 * Field decorators: each declares validation (class-validator), conversion (class-transformer)
 * and documentation (OpenAPI) of one field at once, so the DTO is the single source of all three.
 */
interface Presence {
  /** Must be present (message "Required" when absent). */
  required?: boolean;
  /** null is accepted and means "clear" (PATCH). */
  nullable?: boolean;
  description?: string;
  example?: unknown;
}

function presence(opts: Presence): PropertyDecorator[] {
  if (opts.required) return [IsDefined({ message: 'Required' })];
  if (opts.nullable) return [IsOptional()];
  return [ValidateIf((_obj, value) => value !== undefined)];
}

function doc(opts: Presence, extra: ApiPropertyOptions): PropertyDecorator {
  return ApiProperty({
    required: opts.required ?? false,
    ...(opts.nullable && { nullable: true }),
    ...(opts.description && { description: opts.description }),
    ...(opts.example !== undefined && { example: opts.example }),
    ...extra,
  } as ApiPropertyOptions);
}

export function StringField(opts: Presence & { min?: number; max?: number; format?: 'email' | 'uri' } = {}): PropertyDecorator {
  const { min, max = 10_000 } = opts;
  const decorators: PropertyDecorator[] = [...presence(opts), IsString({ message: 'Expected string' })];
  if (min !== undefined) {
    decorators.push(MinLength(min, { message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters` }));
  }
  decorators.push(MaxLength(max, { message: `Must be at most ${max} characters` }));
  if (opts.format === 'email') decorators.push(IsEmail({}, { message: 'Invalid email' }));
  return applyDecorators(...decorators, doc(opts, { type: String, minLength: min, maxLength: max, format: opts.format }));
}

export function UuidField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(...presence(opts), IsUUID('all', { message: 'Invalid uuid' }), doc(opts, { type: String, format: 'uuid' }));
}

export function DateTimeField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsISO8601({ strict: true }, { message: 'Invalid datetime: expected ISO 8601, e.g. 2026-06-01T18:00:00Z' }),
    doc(opts, { type: String, format: 'date-time' }),
  );
}

export function IntField(opts: Presence & { min?: number; max?: number } = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [...presence(opts), IsInt({ message: 'Expected integer' })];
  if (opts.min !== undefined) decorators.push(Min(opts.min, { message: `Must be at least ${opts.min}` }));
  if (opts.max !== undefined) decorators.push(Max(opts.max, { message: `Must be at most ${opts.max}` }));
  return applyDecorators(...decorators, doc(opts, { type: 'integer', minimum: opts.min, maximum: opts.max }));
}

export function BoolField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(...presence(opts), IsBoolean({ message: 'Expected boolean' }), doc(opts, { type: Boolean }));
}

export function EnumField<const T extends string>(values: readonly T[], opts: Presence = {}): PropertyDecorator {
  return applyDecorators(...presence(opts), IsIn(values, { message: `Must be one of: ${values.join(', ')}` }), doc(opts, { enum: [...values] }));
}

export function PatternField(pattern: RegExp, message: string, opts: Presence & { max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsString({ message: 'Expected string' }),
    MaxLength(opts.max ?? 1000, { message: `Must be at most ${opts.max ?? 1000} characters` }),
    Matches(pattern, { message }),
    doc(opts, { type: String, pattern: pattern.source }),
  );
}

export function ArrayField(itemType: () => new () => object, opts: Presence & { max?: number } = {}): PropertyDecorator {
  const max = opts.max ?? 100;
  return applyDecorators(
    ...presence(opts),
    IsArray({ message: 'Expected array' }),
    ArrayMaxSize(max, { message: `Must have at most ${max} entries` }),
    ValidateNested({ each: true }),
    Type(itemType),
    doc(opts, { type: itemType, isArray: true, maxItems: max }),
  );
}

/** Query-string integer: "20" → 20; anything else stays a string and fails as "Expected integer". */
export function QueryIntField(opts: Presence & { min?: number; max?: number; default?: number } = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value)),
    IntField(opts),
    ApiProperty({ type: 'integer', required: false, minimum: opts.min, maximum: opts.max, default: opts.default }),
  );
}

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints
      ? [{ path, message: error.constraints.isDefined ?? error.constraints.whitelistValidation ?? Object.values(error.constraints)[0] }]
      : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * Validates plain input against a DTO class: unknown fields are refused, every failure is
 * itemized with a dot-delimited path (selections.0.id). Returns the typed instance.
 */
export async function validateInput<T extends object>(dto: new () => T, plain: unknown, root = 'body'): Promise<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw ProblemError.validation([{ path: root, message: 'Expected a JSON object' }]);
  }
  const instance = plainToInstance(dto, plain);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) {
    const itemized = flatten(errors).map((e) => (e.message.startsWith('property ') ? { path: e.path, message: 'Unknown field' } : e));
    throw ProblemError.validation(itemized);
  }
  return instance;
}
