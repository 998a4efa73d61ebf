import { encodeCursor } from '#libs/contracts';

/**
 * Hostile inputs, in one place. fuzz.e2e-spec.ts sends each of them to every field of every REST
 * body and MCP tool's arguments, to every body as a whole, and to every query and path parameter
 * (the routes and tools come from the OpenAPI document and tools/list), and to the auth-server's
 * client registration, sign-up and sign-in forms and authorization parameters, and to the headers
 * of writes without a body. A feature that takes a new kind of input adds its hostile values here.
 */

/** The request body limit of every app (libs/runtime). */
export const BODY_LIMIT_BYTES = 1_048_576;

/** A field as the OpenAPI document (3.1) and tools/list describe it. */
export interface FieldSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  /** A number with at most so many decimals (0.01: hours). */
  multipleOf?: number;
  nullable?: boolean;
  /** What an object keyed by ids (answers) takes under each key. */
  additionalProperties?: unknown;
}

/** An object keyed by ids whose values the schema describes (answers by question id), not a closed object of named fields. */
const isMap = (s: FieldSchema): boolean => typeof s.additionalProperties === 'object' && s.additionalProperties !== null;
const QUESTION_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';

/** Whether a field takes values of this JSON type (null included for a nullable one). */
export function takes(schema: FieldSchema, type: string): boolean {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (type === 'null') return types.includes('null') || schema.nullable === true;
  if (type === 'number') return types.includes('number') || types.includes('integer');
  return types.includes(type);
}

/** A value for one field, as JSON text: lone surrogates and numbers beyond 2^53 have no other faithful form. */
export interface HostileValue {
  name: string;
  json: string;
  /** Fields for which the value is hostile, by schema and name; every field when absent (null is a fine value for a nullable field). */
  appliesTo?(schema: FieldSchema, name: string): boolean;
}

/** A time zone field (`timeZone` of signups, drafts and organizations): an IANA name, nothing else. */
const isTimeZone = (_schema: FieldSchema, name: string): boolean => name === 'timeZone';

/**
 * Strings that are no time zone, however close: offsets, an abbreviation the database reads as
 * another place, paths, look-alike letters, an empty and a huge one. For the fields of
 * HOSTILE_VALUES (isTimeZone) and for the account forms' time zone (as they go in a form).
 */
export const TIME_ZONE_VALUES: readonly { name: string; value: string }[] = [
  { name: 'an offset', value: '+05:00' },
  { name: 'GMT with an offset', value: 'GMT+1' },
  { name: 'UTC with an offset', value: 'UTC-03:30' },
  { name: 'a fixed-offset zone', value: 'Etc/GMT+5' },
  { name: 'an abbreviation', value: 'EST' },
  { name: 'an empty zone', value: '' },
  { name: 'a path out', value: '../../etc/passwd' },
  { name: 'a zone with a dot segment', value: 'America/../Europe/Berlin' },
  { name: 'a Cyrillic look-alike letter', value: 'America/New_Y\u043erk' },
  { name: 'a dotless i', value: 'Europe/Berl\u0131n' },
  { name: 'a zero-width space', value: 'Europe/\u200bBerlin' },
  { name: 'a zone with a space around it', value: ' UTC ' },
  { name: 'a made-up zone', value: 'Mars/Olympus' },
  { name: 'a zone of 65 characters', value: `America/${'A'.repeat(57)}` },
];

/** A signup's reminder lead (`reminderHoursBefore`): whole hours from 0 to 336, nothing else. */
const isReminderLead = (_schema: FieldSchema, name: string): boolean => name === 'reminderHoursBefore';

/** Leads that are no whole number of hours from 0 to 336, however close: for the fields of HOSTILE_VALUES (isReminderLead). */
const REMINDER_LEAD_VALUES: readonly { name: string; json: string }[] = [
  { name: 'one hour past two weeks', json: '337' },
  { name: 'past a 32-bit integer', json: '2147483648' },
  { name: 'an hour and a half', json: '24.5' },
  { name: 'hours in a string', json: '"24"' },
  { name: 'hours with a unit', json: '"24h"' },
  { name: 'an ISO 8601 duration', json: '"PT24H"' },
];

/** A recurrence of POST /signups/{id}/duplicate: its frequency, its interval and its count of copies. */
const isRecurrenceField =
  (names: string[]) =>
  (_schema: FieldSchema, name: string): boolean =>
    names.includes(name);

/** Rules that are no daily, weekly or monthly step of 1 up to a year, nor 1 to 52 copies, however close: RRULE text, other cases, zero, past the maximum. */
const RECURRENCE_VALUES: readonly { name: string; json: string; fields: string[] }[] = [
  { name: 'an RRULE string', json: '"FREQ=WEEKLY;COUNT=3"', fields: ['frequency'] },
  { name: 'a frequency in capitals', json: '"WEEKLY"', fields: ['frequency'] },
  { name: 'a yearly frequency', json: '"yearly"', fields: ['frequency'] },
  { name: 'zero', json: '0', fields: ['interval', 'count'] },
  { name: 'one more than a year of days', json: '367', fields: ['interval'] },
  { name: 'one copy past the maximum', json: '53', fields: ['count'] },
];

export const HOSTILE_VALUES: readonly HostileValue[] = [
  { name: 'a lone high surrogate', json: '"\\ud800"' },
  { name: 'a lone low surrogate inside text', json: '"Potluck \\udc00 2027"' },
  { name: 'a surrogate pair the wrong way round', json: '"\\udc00\\ud800"' },
  { name: 'a NUL character', json: '"a\\u0000b"' },
  { name: 'a string of 10 001 characters', json: JSON.stringify('x'.repeat(10_001)) },
  { name: 'a number in a string', json: '"1e3"', appliesTo: (s) => !takes(s, 'string') },
  { name: 'true', json: 'true', appliesTo: (s) => !takes(s, 'boolean') },
  { name: 'null', json: 'null', appliesTo: (s) => !takes(s, 'null') },
  { name: 'an array', json: '["x"]', appliesTo: (s) => !takes(s, 'array') },
  { name: 'an array of wrong elements', json: '[null, 1e308, "\\ud800", {"constructor": 1}]', appliesTo: (s) => takes(s, 'array') },
  { name: 'an object', json: '{"a": 1}' },
  { name: 'an object with prototype keys', json: '{"constructor": {"name": "x"}, "toString": 1, "prototype": {}}' },
  { name: '1e308', json: '1e308' },
  { name: '-1', json: '-1', appliesTo: (s) => !(s.minimum !== undefined && s.minimum <= -1) },
  { name: '2^53 + 1', json: '9007199254740993' },
  { name: 'a fraction', json: '0.5', appliesTo: (s) => s.multipleOf === undefined || s.multipleOf > 0.5 },
  { name: 'a number with more decimals than the field takes', json: '1.001', appliesTo: (s) => s.multipleOf !== undefined },
  { name: 'a tiny positive number', json: '5e-324', appliesTo: (s) => s.multipleOf !== undefined },
  { name: 'negative zero point one', json: '-0.1', appliesTo: (s) => s.multipleOf !== undefined && (s.minimum ?? -1) >= 0 },
  {
    name: 'a map of 10 000 answers',
    json: JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'x']))),
    appliesTo: isMap,
  },
  // Within the body parser's depth (MAX_JSON_DEPTH, 32): deeper bodies are refused whole, as HOSTILE_BODIES checks.
  { name: 'a map with an answer nested 20 deep', json: `{"${QUESTION_ID}": ${'['.repeat(20)}${']'.repeat(20)}}`, appliesTo: isMap },
  { name: 'a map with an object as an answer', json: `{"${QUESTION_ID}": {"a": {"b": 1}}}`, appliesTo: isMap },
  {
    name: 'a map with an answer of 10 001 characters',
    json: `{"${QUESTION_ID}": ${JSON.stringify('x'.repeat(10_001))}}`,
    appliesTo: isMap,
  },
  { name: 'a map with a list of 10 000 answers', json: `{"${QUESTION_ID}": ${JSON.stringify(Array(10_000).fill('x'))}}`, appliesTo: isMap },
  { name: 'a map with a lone surrogate as a key', json: '{"\\ud800": "x"}', appliesTo: isMap },
  { name: 'a map with a lone surrogate in an answer', json: `{"${QUESTION_ID}": ["\\udc00"]}`, appliesTo: isMap },
  { name: 'a map with a key of 10 001 characters', json: `{"${'k'.repeat(10_001)}": true}`, appliesTo: isMap },
  ...TIME_ZONE_VALUES.map(({ name, value }) => ({ name: `time zone: ${name}`, json: JSON.stringify(value), appliesTo: isTimeZone })),
  ...REMINDER_LEAD_VALUES.map(({ name, json }) => ({ name: `reminder lead: ${name}`, json, appliesTo: isReminderLead })),
  ...RECURRENCE_VALUES.map(({ name, json, fields }) => ({ name: `recurrence: ${name}`, json, appliesTo: isRecurrenceField(fields) })),
];

/** What a whole-body case is made from: a valid value of the body's shape, and how much room the body has. */
export interface BodyContext {
  valid: Record<string, unknown>;
  /** A string field of the shape, or undefined when it has none. */
  textField?: string;
  /** Bytes the value may take before the request reaches BODY_LIMIT_BYTES (less than it when wrapped, e.g. in a JSON-RPC message). */
  room: number;
}

/**
 * Where a whole-body case is refused: `body` (it cannot be read: 422 on `body`, before any
 * credential or argument is looked at), `shape` (readable JSON that is not an object: 422 on `body`
 * over REST, InvalidParams as tool arguments), or the field the 422 names.
 */
export type Refusal = 'body' | 'shape' | ((context: BodyContext) => string);

export interface HostileBody {
  name: string;
  make(context: BodyContext): string | Uint8Array;
  refusedAt: Refusal;
}

const DEEP = 2000;
const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const fieldOf = (context: BodyContext) => context.textField ?? 'x';

const PLACEHOLDER = '\u0001hostile\u0001';

/** The valid value with `field` set to a value given as JSON text. */
export function withRaw(context: BodyContext, field: string, json: string): string {
  return JSON.stringify({ ...context.valid, [field]: PLACEHOLDER }).replace(JSON.stringify(PLACEHOLDER), () => json);
}

/** The valid value with a key put first, given as raw JSON (JSON.stringify cannot write an own `__proto__`). */
function withKeyFirst(context: BodyContext, key: string, json: string): string {
  const rest = JSON.stringify(context.valid).slice(1);
  return `{${JSON.stringify(key)}:${json}${rest === '}' ? '' : ','}${rest}`;
}

/** The valid value with its text field grown to a string that makes the body `bytes` long. */
function sized(context: BodyContext, bytes: number): string {
  const field = fieldOf(context);
  const empty = JSON.stringify({ ...context.valid, [field]: '' });
  return JSON.stringify({ ...context.valid, [field]: 'x'.repeat(bytes - Buffer.byteLength(empty)) });
}

export const HOSTILE_BODIES: readonly HostileBody[] = [
  { name: `objects nested ${DEEP} deep`, make: () => `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`, refusedAt: 'body' },
  { name: `arrays nested ${DEEP} deep in a field`, make: (c) => withRaw(c, fieldOf(c), deepArrays(DEEP)), refusedAt: 'body' },
  { name: 'arrays nested 100 000 deep in a field', make: (c) => withRaw(c, fieldOf(c), deepArrays(100_000)), refusedAt: 'body' },
  { name: 'a body one byte over the limit', make: (c) => sized(c, c.room + 1), refusedAt: 'body' },
  { name: 'a string that fills the body to just under the limit', make: (c) => sized(c, c.room - 1), refusedAt: fieldOf },
  {
    name: 'bytes that are not UTF-8 in a string',
    make: (c) => {
      const [before, after] = withRaw(c, fieldOf(c), '"\u0002"').split('\u0002') as [string, string];
      return Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from(after)]);
    },
    refusedAt: 'body',
  },
  { name: 'a __proto__ key', make: (c) => withKeyFirst(c, '__proto__', '{"polluted": true}'), refusedAt: 'body' },
  {
    name: 'a constructor.prototype key',
    make: (c) => withKeyFirst(c, 'constructor', '{"prototype": {"polluted": true}}'),
    refusedAt: 'body',
  },
  { name: 'a constructor key', make: (c) => withKeyFirst(c, 'constructor', '1'), refusedAt: () => 'constructor' },
  { name: 'a toString key', make: (c) => withKeyFirst(c, 'toString', '"x"'), refusedAt: () => 'toString' },
  { name: 'a hasOwnProperty key', make: (c) => withKeyFirst(c, 'hasOwnProperty', '{"a": 1}'), refusedAt: () => 'hasOwnProperty' },
  { name: 'a prototype key', make: (c) => withKeyFirst(c, 'prototype', '{"polluted": true}'), refusedAt: () => 'prototype' },
  { name: 'an unknown key that is a lone surrogate', make: (c) => withKeyFirst(c, '\ud800', '1'), refusedAt: () => '\ud800' },
  { name: 'a JSON array', make: () => '[]', refusedAt: 'shape' },
  { name: 'a JSON string', make: () => '"\\ud800"', refusedAt: 'shape' },
  { name: 'JSON null', make: () => 'null', refusedAt: 'shape' },
  { name: 'a JSON number', make: () => '1e308', refusedAt: 'shape' },
  { name: 'truncated JSON', make: (c) => JSON.stringify(c.valid).slice(0, -1), refusedAt: 'body' },
  { name: 'an empty body', make: () => '', refusedAt: 'body' },
];

/** A value for a path or query parameter, as it goes in the URL (percent-encoded where it needs to be). */
export interface HostileParam {
  name: string;
  raw: string;
}

/** Hostile wherever a URL carries them. */
const URL_VALUES: readonly HostileParam[] = [
  { name: 'a percent-encoded lone surrogate', raw: '%ED%A0%80' },
  { name: 'broken percent-encoding', raw: '%E0%A4%A' },
  { name: 'a NUL', raw: '%00' },
  { name: '600 characters', raw: 'a'.repeat(600) },
];

export const HOSTILE_PATH_VALUES: readonly HostileParam[] = [
  ...URL_VALUES,
  { name: 'not a uuid', raw: 'not-a-uuid' },
  { name: 'a uuid of nothing', raw: '00000000-0000-4000-8000-000000000000' },
  { name: 'a uuid with a NUL', raw: '0190a0b2-7a3c-7def-8a12-1234567890ab%00' },
  { name: 'dot segments', raw: '..%2F..%2Fadmin' },
  { name: 'SQL', raw: encodeURIComponent("1' OR '1'='1") },
  { name: '__proto__', raw: '__proto__' },
];

/** Headers of a write that takes no body (POST and DELETE /calendar-feed): each must be refused, never run the write. */
export interface HostileHeaders {
  name: string;
  headers: Record<string, string>;
  body?: string;
}

export const HOSTILE_HEADERS: readonly HostileHeaders[] = [
  { name: 'an Idempotency-Key of 600 characters', headers: { 'idempotency-key': 'k'.repeat(600) } },
  { name: 'an empty Idempotency-Key', headers: { 'idempotency-key': '' } },
  { name: 'an Idempotency-Key that is not ASCII', headers: { 'idempotency-key': 'clé-\u00ff' } },
  { name: 'an Idempotency-Key with a space', headers: { 'idempotency-key': 'a b' } },
  { name: 'an empty quoted Idempotency-Key', headers: { 'idempotency-key': '""' } },
  { name: 'a text body', headers: { 'content-type': 'text/plain' }, body: 'x' },
  { name: 'a form body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'rotate=1' },
  { name: 'a JSON body with a field', headers: { 'content-type': 'application/json' }, body: '{"url": "http://127.0.0.1:9/x"}' },
  { name: 'a JSON body in UTF-16', headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{"a": 1}' },
  { name: 'a malformed If-Match', headers: { 'if-match': 'abc' } },
  { name: 'an If-Match of 3000 characters', headers: { 'if-match': `"${'a'.repeat(3000)}"` } },
  { name: 'a malformed If-None-Match', headers: { 'if-none-match': '"a" "b"' } },
];

/**
 * If-Match and If-None-Match values that are no `*` and no list of entity-tags (RFC 9110 §8.8.3):
 * each is 422 validation_failed on the header, on a read and on a write. Control characters and
 * characters past U+00FF cannot go through fetch; conditional-requests.e2e-spec.ts writes those on a socket.
 */
export const HOSTILE_CONDITIONS: readonly { name: string; value: string }[] = [
  { name: 'an empty value', value: '' },
  { name: 'a bare token', value: 'abc' },
  { name: 'a bare uuid', value: '0190a0b2-7a3c-7def-8a12-1234567890ab' },
  { name: 'an unclosed quote', value: '"abc' },
  { name: 'a lower-case weak prefix', value: 'w/"abc"' },
  { name: 'two tags without a comma', value: '"a" "b"' },
  { name: '* in a list', value: '*, "a"' },
  { name: 'only commas', value: ', ,' },
  { name: 'a space inside a tag', value: '"a b"' },
  { name: 'a character past ASCII outside quotes', value: '\u00e9' },
  { name: 'a JSON object', value: '{"etag":"a"}' },
  { name: 'a tag of 3000 characters', value: `"${'a'.repeat(3000)}"` },
  { name: '500 tags', value: Array.from({ length: 500 }, (_, i) => `"t${i}"`).join(', ') },
];

const b64 = (json: string) => Buffer.from(json).toString('base64url');
const SOME_UUID = '0190a0b2-7a3c-7def-8a12-1234567890ab';

/** Values for a query parameter, cursors included. */
export const HOSTILE_QUERY_VALUES: readonly HostileParam[] = [
  ...URL_VALUES,
  { name: '2^53 + 1', raw: '9007199254740993' },
  { name: '1e308', raw: '1e308' },
  { name: '-1', raw: '-1' },
  { name: 'an impossible date', raw: '2027-02-30' },
  // Far in the future: a date-time query (updated_since, created_gte, created_lt) refuses one in the future.
  { name: 'a date with a time', raw: '2999-02-01T00%3A00%3A00Z' },
  { name: 'a date with a lone surrogate', raw: '2027-02-01%ED%A0%80' },
  { name: 'a cursor of another shape', raw: b64('{"a": 1}') },
  { name: 'a cursor whose timestamp is not one', raw: b64(`{"createdAt": "x", "eventDate": "x", "joinedAt": "x", "id": "${SOME_UUID}"}`) },
  {
    name: 'a cursor whose id is not a uuid',
    raw: b64(
      '{"createdAt": "2027-01-01T00:00:00Z", "eventDate": "2027-01-01T00:00:00Z", "joinedAt": "2027-01-01T00:00:00Z", "id": "not-a-uuid"}',
    ),
  },
  {
    name: 'a cursor with a lone surrogate',
    raw: b64(
      `{"createdAt": "2027-01-01T00:00:00Z", "eventDate": "2027-01-01T00:00:00Z", "joinedAt": "2027-01-01T00:00:00Z", "id": "\\ud800"}`,
    ),
  },
  { name: 'a cursor nested 2000 deep', raw: b64(deepArrays(DEEP)) },
  { name: 'a cursor with a __proto__ key', raw: b64(`{"__proto__": {"polluted": true}, "createdAt": "x", "id": "${SOME_UUID}"}`) },
  { name: 'a cursor that is JSON null', raw: b64('null') },
  // A well-formed cursor of the signup list of another organization: every list refuses it (docs/decisions.md, "Event log and sync").
  {
    name: 'a cursor of another organization',
    raw: encodeCursor(
      { createdAt: '2027-01-01T00:00:00Z', eventDate: '2027-01-01T00:00:00Z', id: SOME_UUID },
      { list: 'signups.list', organizationId: 'org_someoneelse', livemode: false },
    ),
  },
];
