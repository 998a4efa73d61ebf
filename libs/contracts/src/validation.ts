import 'reflect-metadata';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  isEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationError,
  type ValidationOptions,
} from 'class-validator';
import { isValidPhoneNumber, parsePhoneNumberFromString, parsePhoneNumberWithError } from 'libphonenumber-js';
import { type FieldError, ProblemError } from '#libs/problem';

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

/** NUL and the other C0 controls except tab, newline and carriage return: never text. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A UTF-16 surrogate that is not half of a pair (with the u flag, a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Text that UTF-8 can carry: no lone surrogate (JSON's "\ud800"). Such a string would be changed
 * into U+FFFD on its way to Postgres or refused there (jsonb), and makes some checks throw
 * (encodeURI in an e-mail check), so it is refused before anything else looks at it.
 */
export function isWellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** Text as every text field takes it: valid Unicode, with no control character but tab, newline and carriage return. */
export function isPlainText(value: string): boolean {
  return isWellFormed(value) && !CONTROL_CHARACTERS.test(value);
}

export const UNICODE_MESSAGE = 'Must be valid Unicode';

/** Every text field's first check after its type: a string that is not valid Unicode is refused. */
function WellFormedText(): PropertyDecorator {
  return ValidateBy(
    { name: 'wellFormedUnicode', validator: { validate: (value: unknown) => typeof value !== 'string' || isWellFormed(value) } },
    { message: UNICODE_MESSAGE },
  );
}

/** A check on text that runs only on valid Unicode (the message for the rest is UNICODE_MESSAGE's). */
function TextCheck(name: string, check: (value: string) => boolean, message: string): PropertyDecorator {
  return ValidateBy(
    { name, validator: { validate: (value: unknown) => typeof value !== 'string' || !isWellFormed(value) || check(value) } },
    { message },
  );
}

/** The longest e-mail address any form or body accepts. */
export const EMAIL_MAX_LENGTH = 320;

/**
 * The one e-mail check of every body and form: validator.js's isEmail (what class-validator's
 * IsEmail runs), after the length bound, so no pattern ever sees a longer string, and only on
 * valid Unicode (on a lone surrogate, isEmail throws).
 */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= EMAIL_MAX_LENGTH && isWellFormed(value) && isEmail(value);
}

export function StringField(opts: Presence & { min?: number; max?: number; format?: 'email' | 'uri' } = {}): PropertyDecorator {
  const { min, max = 10_000 } = opts;
  const decorators: PropertyDecorator[] = [
    ...presence(opts),
    IsString({ message: 'Expected string' }),
    WellFormedText(),
    TextCheck('noControlCharacters', (value) => !CONTROL_CHARACTERS.test(value), 'Must not contain control characters'),
  ];
  if (min !== undefined) {
    decorators.push(MinLength(min, { message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters` }));
  }
  decorators.push(MaxLength(max, { message: `Must be at most ${max} characters` }));
  if (opts.format === 'email') decorators.push(TextCheck('isEmail', isEmailAddress, 'Invalid email'));
  return applyDecorators(...decorators, doc(opts, { type: String, minLength: min, maxLength: max, format: opts.format }));
}

export function UuidField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(...presence(opts), IsUUID('all', { message: 'Invalid uuid' }), doc(opts, { type: String, format: 'uuid' }));
}

/** RFC 3339 date-time: a full date and time with Z or a numeric offset (never a host-local time). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
/** The longest string DATE_TIME matches: `2026-06-01T18:00:00.123456789+01:00`. */
const DATE_TIME_MAX_LENGTH = 35;

export function isDateTime(value: unknown): value is string {
  const match = typeof value === 'string' && value.length <= DATE_TIME_MAX_LENGTH ? DATE_TIME.exec(value) : null;
  if (!match) return false;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! < 24 &&
    minute! < 60 &&
    second < 60 &&
    offsetHours < 24 &&
    offsetMinutes < 60
  );
}

export function DateTimeField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    ValidateBy(
      { name: 'isDateTime', validator: { validate: isDateTime } },
      { message: 'Invalid datetime: expected ISO 8601 with a time zone, e.g. 2026-06-01T18:00:00Z' },
    ),
    doc(opts, { type: String, format: 'date-time' }),
  );
}

export function IntField(opts: Presence & { min?: number; max?: number } = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [...presence(opts), IsInt({ message: 'Expected integer' })];
  if (opts.min !== undefined) decorators.push(Min(opts.min, { message: `Must be at least ${opts.min}` }));
  if (opts.max !== undefined) decorators.push(Max(opts.max, { message: `Must be at most ${opts.max}` }));
  return applyDecorators(...decorators, doc(opts, { type: 'integer', minimum: opts.min, maximum: opts.max }));
}

/** A number with at most `decimals` digits after the point (hours: 1.25), within its bounds. */
export function DecimalField(opts: Presence & { min: number; max: number; decimals: number }): PropertyDecorator {
  const { min, max, decimals } = opts;
  return applyDecorators(
    ...presence(opts),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'Expected number' }),
    Min(min, { message: `Must be at least ${min}` }),
    Max(max, { message: `Must be at most ${max}` }),
    ValidateBy(
      {
        name: 'decimals',
        validator: {
          // Out of bounds is Min's or Max's to say.
          validate: (value: unknown) =>
            typeof value !== 'number' || !(value >= min && value <= max) || Number(value.toFixed(decimals)) === value,
        },
      },
      { message: `At most ${decimals} decimals` },
    ),
    doc(opts, { type: 'number', minimum: min, maximum: max, multipleOf: 10 ** -decimals }),
  );
}

/** A calendar day, YYYY-MM-DD (a UTC day where it bounds a range). */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDate(value: unknown): value is string {
  const match = typeof value === 'string' && value.length === 10 ? DATE.exec(value) : null;
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function DateField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsString({ message: 'Expected string' }),
    WellFormedText(),
    ValidateBy({ name: 'isDate', validator: { validate: isDate } }, { message: 'Invalid date: expected YYYY-MM-DD, e.g. 2026-06-01' }),
    doc(opts, { type: String, format: 'date' }),
  );
}

export function BoolField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(...presence(opts), IsBoolean({ message: 'Expected boolean' }), doc(opts, { type: Boolean }));
}

export function EnumField<const T extends string>(values: readonly T[], opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsIn(values, { message: `Must be one of: ${values.join(', ')}` }),
    doc(opts, { enum: [...values] }),
  );
}

/** A list of names from `values`; the message names the first unknown one. */
export function EnumListField<const T extends string>(
  values: readonly T[],
  opts: Presence & { min?: number; max?: number } = {},
): PropertyDecorator {
  const known = new Set<string>(values);
  const { min = 0, max = values.length } = opts;
  return applyDecorators(
    ...presence(opts),
    IsArray({ message: 'Expected array' }),
    ArrayMinSize(min, { message: min === 1 ? 'Must not be empty' : `Must have at least ${min} entries` }),
    ArrayMaxSize(max, { message: `Must have at most ${max} entries` }),
    ValidateBy({
      name: 'knownNames',
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every((v) => typeof v === 'string' && known.has(v)),
        defaultMessage: (args) => {
          const unknown = (args?.value as unknown[]).find((v) => typeof v !== 'string' || !known.has(v));
          return `Unknown value ${JSON.stringify(unknown)}: must be one of ${values.join(', ')}`;
        },
      },
    }),
    doc(opts, { type: String, isArray: true, enum: [...values], minItems: min, maxItems: max }),
  );
}

/** A string matching `pattern`; the pattern only sees strings within the maximum length (class-validator runs every rule). */
export function PatternField(pattern: RegExp, message: string, opts: Presence & { max?: number } = {}): PropertyDecorator {
  const max = opts.max ?? 1000;
  return applyDecorators(
    ...presence(opts),
    IsString({ message: 'Expected string' }),
    WellFormedText(),
    MaxLength(max, { message: `Must be at most ${max} characters` }),
    ValidateBy(
      {
        name: 'matches',
        validator: { validate: (value: unknown) => typeof value === 'string' && value.length <= max && pattern.test(value) },
      },
      { message },
    ),
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
    // A thunk named `type` is what @nestjs/swagger resolves lazily (a class referenced before it is defined).
    doc(opts, { type: () => itemType(), isArray: true, maxItems: max }),
  );
}

/** One object of a DTO class, validated field by field (its errors at `<field>.<name>`). */
export function NestedField(itemType: () => new () => object, opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsObject({ message: 'Expected object' }),
    ValidateNested(),
    Type(itemType),
    doc(opts, { type: () => itemType() }),
  );
}

/**
 * A field that belongs to some objects only, decided on the object's other fields (`options` of a
 * choice question): refused ("Only for …") where `applies` is false, and when `required`, needed
 * ("Required for …") where it is true. null is taken as absent, so a view read back is a valid input.
 */
export interface OnlyFor {
  applies(object: object): boolean;
  /** What it belongs to, for messages: "single_choice and multiple_choice questions". */
  what: string;
  required?: boolean;
}

function onlyFor(only: OnlyFor): PropertyDecorator[] {
  return [
    ValidateIf((object: object, value) => (value !== undefined && value !== null) || (only.required === true && only.applies(object))),
    IsDefined({ message: `Required for ${only.what}` }),
    ValidateBy(
      { name: 'onlyFor', validator: { validate: (_value, args) => only.applies(args!.object) } },
      { message: `Only for ${only.what}` },
    ),
  ];
}

/** A finite number (not necessarily an integer); with `atLeast`, not below the number in that field of the same object. */
export function NumberField(opts: Presence & { only?: OnlyFor; atLeast?: string } = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...(opts.only ? onlyFor(opts.only) : presence(opts)),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'Expected number' }),
  ];
  const { atLeast } = opts;
  if (atLeast) {
    decorators.push(
      ValidateBy(
        {
          name: 'atLeast',
          validator: {
            validate: (value, args) => {
              const floor = (args!.object as Record<string, unknown>)[atLeast];
              return typeof value !== 'number' || typeof floor !== 'number' || value >= floor;
            },
          },
        },
        { message: `Must not be less than ${atLeast}` },
      ),
    );
  }
  return applyDecorators(...decorators, doc(opts, { type: 'number' }));
}

/** A list of distinct texts, each 1..`itemMax` characters of plain text. */
export function StringListField(opts: Presence & { min?: number; max: number; itemMax: number; only?: OnlyFor }): PropertyDecorator {
  const { min = 0, max, itemMax } = opts;
  const isItem = (v: unknown) => typeof v === 'string' && v.length >= 1 && v.length <= itemMax && isPlainText(v);
  return applyDecorators(
    ...(opts.only ? onlyFor(opts.only) : presence(opts)),
    IsArray({ message: 'Expected array' }),
    ArrayMinSize(min, { message: min === 1 ? 'Must not be empty' : `Must have at least ${min} entries` }),
    ArrayMaxSize(max, { message: `Must have at most ${max} entries` }),
    ValidateBy(
      { name: 'texts', validator: { validate: (value: unknown) => !Array.isArray(value) || value.every(isItem) } },
      { message: `Each entry must be text of 1 to ${itemMax} characters, without control characters` },
    ),
    ValidateBy(
      { name: 'distinct', validator: { validate: (value: unknown) => !Array.isArray(value) || new Set(value).size === value.length } },
      { message: 'Entries must be distinct' },
    ),
    doc(opts, {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: itemMax },
      minItems: min,
      maxItems: max,
      uniqueItems: true,
    } as ApiPropertyOptions),
  );
}

/** One answer as a body may carry it: text, a number, a boolean or a list of texts (null too where it clears). */
export type AnswerValue = string | number | boolean | string[];

/** The most answers a body carries (one per question), and the longest text or list an answer may be. */
export const ANSWER_LIMITS = { keys: 50, keyLength: 100, text: 5000, list: 50, listEntry: 200 } as const;

/** Why an answer is not of a shape any question takes (undefined: it is), at the structure level only. */
function answerShapeProblem(value: unknown, clearable: boolean): string | undefined {
  if (value === null) return clearable ? undefined : 'Expected a value, not null';
  if (typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'Expected a finite number';
  if (typeof value === 'string') {
    if (value.length > ANSWER_LIMITS.text) return `Must be at most ${ANSWER_LIMITS.text} characters`;
    return isPlainText(value) ? undefined : 'Must be valid Unicode without control characters';
  }
  if (Array.isArray(value)) {
    if (value.length > ANSWER_LIMITS.list) return `Must have at most ${ANSWER_LIMITS.list} entries`;
    const ok = value.every((v) => typeof v === 'string' && v.length <= ANSWER_LIMITS.listEntry && isPlainText(v));
    return ok ? undefined : `Each entry must be text of at most ${ANSWER_LIMITS.listEntry} characters`;
  }
  return 'Expected text, a number, a boolean or a list of texts';
}

/** The OpenAPI schema of one answer. */
export function answerSchema(clearable = false): Record<string, unknown> {
  const text = { type: 'string', maxLength: ANSWER_LIMITS.text };
  const list = { type: 'array', maxItems: ANSWER_LIMITS.list, items: { type: 'string', maxLength: ANSWER_LIMITS.listEntry } };
  return { oneOf: [text, { type: 'number' }, { type: 'boolean' }, list, ...(clearable ? [{ type: 'null' }] : [])] };
}

/**
 * Answers to a signup's questions, keyed by question id: a plain object of at most 50 answers,
 * each text, a number, a boolean or a list of texts, bounded in size (null too when `clearable`).
 * Which answers fit which question is the signups-service's to check: it knows the questions.
 */
export function AnswersField(opts: Presence & { clearable?: boolean } = {}): PropertyDecorator {
  const clearable = opts.clearable ?? false;
  const problemOf = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Expected an object keyed by question id';
    const entries = Object.entries(value);
    if (entries.length > ANSWER_LIMITS.keys) return `Must have at most ${ANSWER_LIMITS.keys} answers`;
    for (const [key, answer] of entries) {
      if (key.length > ANSWER_LIMITS.keyLength || !isPlainText(key)) return 'Keys must be question ids';
      const problem = answerShapeProblem(answer, clearable);
      if (problem) return `Answer ${JSON.stringify(key)}: ${problem}`;
    }
    return undefined;
  };
  return applyDecorators(
    ...presence(opts),
    ValidateBy({
      name: 'answers',
      validator: { validate: (value: unknown) => problemOf(value) === undefined, defaultMessage: (args) => problemOf(args?.value) ?? '' },
    }),
    doc(opts, {
      type: 'object',
      additionalProperties: answerSchema(clearable),
      maxProperties: ANSWER_LIMITS.keys,
      description: opts.description ?? 'Answers keyed by question id.',
    } as ApiPropertyOptions),
  );
}

export const PHONE_MESSAGE = 'Invalid phone number: use the international format without an extension, e.g. +14155550123';
/** The longest phone number accepted as written ("+1 (415) 555-0123" and the like). */
const PHONE_MAX_LENGTH = 32;

/** A number texts can reach: international form, valid in its numbering plan, no extension. */
export function isPhoneNumber(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= PHONE_MAX_LENGTH &&
    value.startsWith('+') &&
    isValidPhoneNumber(value) &&
    !parsePhoneNumberFromString(value)?.ext
  );
}

/** A valid international phone number in E.164 form: "+1 (415) 555-0123" → "+14155550123". */
export function toE164(phone: string): string {
  return parsePhoneNumberWithError(phone).number;
}

/** A phone number in international (E.164) form, checked against the numbering plans. */
export function PhoneField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    IsString({ message: 'Expected string' }),
    WellFormedText(),
    MaxLength(PHONE_MAX_LENGTH, { message: `Must be at most ${PHONE_MAX_LENGTH} characters` }),
    TextCheck('isPhone', isPhoneNumber, PHONE_MESSAGE),
    doc(opts, { type: String, example: '+14155550123', description: 'International format (E.164).' }),
  );
}

/** The zone of an organization, and of a signup, that was given none. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Longer than any IANA name (the longest has 30 characters): a longer value is refused before Intl sees it. */
export const TIME_ZONE_MAX_LENGTH = 64;

export const TIME_ZONE_MESSAGE = 'Unknown time zone: expected an IANA name such as America/New_York, or UTC';

/** The characters of IANA names: ASCII letters, digits, `_`, `-`, `+` and `/` (no dot, so no `..`, no space, no look-alike letter). */
const TIME_ZONE_CHARACTERS = /^[A-Za-z0-9_+\-/]+$/;

/**
 * Abbreviations the database keeps as zones of places they do not mean: EST is America/Panama and
 * MST America/Phoenix, both without daylight saving time, where whoever writes them means New York
 * or Denver; the European ones likewise stand for one city each.
 */
const TIME_ZONE_ABBREVIATIONS: ReadonlySet<string> = new Set(['est', 'mst', 'hst', 'cet', 'eet', 'met', 'wet']);

let listed: { names: readonly string[]; set: ReadonlySet<string> } | undefined;

function listedZones(): { names: readonly string[]; set: ReadonlySet<string> } {
  if (!listed) {
    const names = [...new Set([...Intl.supportedValuesOf('timeZone'), DEFAULT_TIME_ZONE])].sort();
    listed = { names, set: new Set(names) };
  }
  return listed;
}

/** The names the runtime's Intl lists (its canonical names) and UTC, sorted: what a form offers to choose from. */
export function listedTimeZones(): readonly string[] {
  return listedZones().names;
}

/**
 * The one time zone check of every body, form and tool: the name to store for a zone, or
 * undefined when `value` is none we take. A name the runtime's Intl lists (or UTC) is kept as
 * sent; another name Intl reads (a backward-compatible link such as US/Eastern, the same name in
 * another case) becomes the listed name it stands for. Offsets (`+05:00`, `GMT+1`, `Etc/GMT+1`),
 * abbreviations (EST) and anything else are refused. Only short strings of the names' characters
 * reach Intl.
 */
export function timeZoneOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > TIME_ZONE_MAX_LENGTH || !TIME_ZONE_CHARACTERS.test(value)) return undefined;
  const zones = listedZones().set;
  if (zones.has(value)) return value;
  if (TIME_ZONE_ABBREVIATIONS.has(value.toLowerCase())) return undefined;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return zones.has(canonical) ? canonical : undefined;
}

/** Whether `value` is a time zone name we take (see timeZoneOf). */
export function isTimeZone(value: unknown): value is string {
  return timeZoneOf(value) !== undefined;
}

/** class-validator: the value is a time zone name we take (isTimeZone); the message says what is wrong, as the other fields' checks say it. */
export function IsTimeZone(options: ValidationOptions = {}): PropertyDecorator {
  const messageFor = (value: unknown): string => {
    if (typeof value !== 'string') return 'Expected string';
    return isWellFormed(value) ? TIME_ZONE_MESSAGE : UNICODE_MESSAGE;
  };
  return ValidateBy(
    { name: 'isTimeZone', validator: { validate: isTimeZone, defaultMessage: (args) => messageFor(args?.value) } },
    options,
  );
}

/**
 * An IANA time zone (IsTimeZone), stored as timeZoneOf names it: a link name the runtime does not
 * list becomes the listed one, so the DTO holds what is stored.
 */
export function TimeZoneField(opts: Presence = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(opts),
    Transform(({ value }: { value: unknown }) => timeZoneOf(value) ?? value),
    IsTimeZone(),
    doc(opts, { type: String, maxLength: TIME_ZONE_MAX_LENGTH, example: opts.example ?? 'America/New_York' }),
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
      ? [
          {
            path,
            message:
              error.constraints.isDefined ??
              error.constraints.whitelistValidation ??
              (error.constraints.nestedValidation ? 'Expected object' : Object.values(error.constraints)[0]),
          },
        ]
      : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * A key every object inherits (`__proto__`, `constructor`, `toString`, `hasOwnProperty`…). No DTO
 * declares one, yet class-transformer skips `__proto__` and `constructor` (or takes the latter for
 * a nested object's class, and throws), and class-validator's whitelist takes the others for
 * declared fields and lets them through onto the instance.
 */
function isPrototypeKey(key: string): boolean {
  return key in Object.prototype;
}

/** The input without its prototype keys, at any depth, and their paths: they are unknown fields. */
function withoutPrototypeKeys(plain: unknown, parent: string, found: FieldError[]): unknown {
  if (typeof plain !== 'object' || plain === null) return plain;
  const path = (key: string | number) => (parent ? `${parent}.${key}` : `${key}`);
  if (Array.isArray(plain)) return plain.map((element: unknown, i) => withoutPrototypeKeys(element, path(i), found));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plain)) {
    if (isPrototypeKey(key)) found.push({ path: path(key), message: 'Unknown field' });
    else copy[key] = withoutPrototypeKeys(value, path(key), found);
  }
  return copy;
}

/**
 * Validates plain input against a DTO class: unknown fields are refused, every failure is
 * itemized with a dot-delimited path (selections.0.id). Returns the typed instance.
 */
export async function validateInput<T extends object>(dto: new () => T, plain: unknown, root = 'body'): Promise<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw ProblemError.validation([{ path: root, message: 'Expected a JSON object' }]);
  }
  const prototypeKeys: FieldError[] = [];
  const instance = plainToInstance(dto, withoutPrototypeKeys(plain, '', prototypeKeys));
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0 || prototypeKeys.length > 0) {
    const itemized = flatten(errors).map((e) => (e.message.startsWith('property ') ? { path: e.path, message: 'Unknown field' } : e));
    throw ProblemError.validation([...prototypeKeys, ...itemized]);
  }
  return instance;
}
