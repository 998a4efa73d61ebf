import { ProblemError } from '#libs/problem';
import { requireUuid } from './ids.js';
import { type CursorList, decodeCursor, encodeCursor, updatedSinceOf } from './pagination.js';
import { RegistrationDto as ParticipantRegistrationDto } from './participants.js';
import { CreateSignupDto, ListSignupsQueryDto, UpdateSignupDto } from './signups.js';
import {
  ArrayField,
  DateField,
  DecimalField,
  EMAIL_MAX_LENGTH,
  IntField,
  isDate,
  isEmailAddress,
  isPhoneNumber,
  isPlainText,
  isWellFormed,
  PatternField,
  PhoneField,
  StringField,
  toE164,
  UuidField,
  validateInput,
} from './validation.js';

class SelectionDto {
  @StringField({ required: true }) type!: string;
  @UuidField({ required: true }) id!: string;
  @IntField({ min: 1 }) quantity?: number;
}

class RegistrationDto {
  @StringField({ required: true, min: 1 }) name!: string;
  @ArrayField(() => SelectionDto, { required: true }) selections!: SelectionDto[];
}

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (err) {
    return err as ProblemError;
  }
  throw new Error('expected a problem');
}

describe('validateInput', () => {
  it('accepts a valid body and returns a typed instance', async () => {
    const dto = await validateInput(CreateSignupDto, { title: 'Potluck', eventDate: '2026-12-24T18:00:00Z' });
    expect(dto).toBeInstanceOf(CreateSignupDto);
    expect(dto.title).toBe('Potluck');
  });

  it('says Required for a missing field and names an empty required string', async () => {
    const problem = await problemOf(validateInput(CreateSignupDto, { title: '' }));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      { path: 'title', message: 'Must not be empty' },
      { path: 'eventDate', message: 'Required' },
    ]);
  });

  it('itemizes nested array failures with dot paths and indexes', async () => {
    const problem = await problemOf(
      validateInput(RegistrationDto, {
        name: 'A',
        selections: [
          { type: 'slot', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' },
          { type: 'slot', id: 'nope' },
        ],
      }),
    );
    expect(problem.errors).toEqual([{ path: 'selections.1.id', message: 'Invalid uuid' }]);
  });

  it('says Expected object for an array element that is not an object', async () => {
    const problem = await problemOf(validateInput(RegistrationDto, { name: 'A', selections: [null, 3] }));
    expect(problem.errors).toEqual([
      { path: 'selections.0', message: 'Expected object' },
      { path: 'selections.1', message: 'Expected object' },
    ]);
  });

  it('refuses unknown fields', async () => {
    const problem = await problemOf(validateInput(UpdateSignupDto, { status: 'published' }));
    expect(problem.errors).toEqual([{ path: 'status', message: 'Unknown field' }]);
  });

  it('accepts null to clear a nullable field but not a required one', async () => {
    await expect(validateInput(UpdateSignupDto, { location: null, maxParticipants: null })).resolves.toBeDefined();
    const problem = await problemOf(validateInput(UpdateSignupDto, { title: null }));
    expect(problem.errors?.[0]?.path).toBe('title');
  });

  it('refuses a non-object body', async () => {
    const problem = await problemOf(validateInput(CreateSignupDto, [1, 2]));
    expect(problem.errors).toEqual([{ path: 'body', message: 'Expected a JSON object' }]);
  });

  it('converts and bounds query integers', async () => {
    expect((await validateInput(ListSignupsQueryDto, { limit: '5' }, 'query')).limit).toBe(5);
    expect((await problemOf(validateInput(ListSignupsQueryDto, { limit: '0' }, 'query'))).errors).toEqual([
      { path: 'limit', message: 'Must be at least 1' },
    ]);
    expect((await problemOf(validateInput(ListSignupsQueryDto, { limit: 'abc' }, 'query'))).errors).toEqual([
      { path: 'limit', message: 'Expected integer' },
    ]);
    expect((await problemOf(validateInput(ListSignupsQueryDto, { limit: '101' }, 'query'))).errors).toEqual([
      { path: 'limit', message: 'Must be at most 100' },
    ]);
  });

  it.each(['2026-W05', '2026-123', '2026-12-01', '2026-12-01T10:00', '2026-02-30T10:00:00Z', 'tomorrow'])(
    'refuses %j as eventDate',
    async (eventDate) => {
      const problem = await problemOf(validateInput(CreateSignupDto, { title: 'x', eventDate }));
      expect(problem.errors).toEqual([{ path: 'eventDate', message: expect.stringContaining('Invalid datetime') }]);
    },
  );

  it.each(['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.123+02:00', '2026-12-01T10:00-05:00'])(
    'accepts %j as eventDate',
    async (eventDate) => {
      await expect(validateInput(CreateSignupDto, { title: 'x', eventDate })).resolves.toBeDefined();
    },
  );

  it.each([
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate inside text', 'ab\udc00cd'],
    ['two high surrogates', '\ud800\ud800'],
    ['a pair the wrong way round', '\udc00\ud800'],
  ])('refuses %s in an e-mail as invalid Unicode instead of failing', async (_case, bad) => {
    const problem = await problemOf(
      validateInput(ParticipantRegistrationDto, { name: 'Ann', email: `${bad}@example.com`, selections: [] }),
    );
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([{ path: 'email', message: 'Must be valid Unicode' }]);
  });

  it('checks an e-mail with a lone surrogate, as the forms do, as not an address rather than throwing', () => {
    expect(isEmailAddress('ann\ud800@example.com')).toBe(false);
    expect(isEmailAddress('ann@example.com')).toBe(true);
  });

  it('refuses a lone surrogate in every kind of text field', async () => {
    class Texts {
      @StringField() text?: string;
      @PatternField(/^[a-z]+$/, 'Lowercase only') pattern?: string;
      @PhoneField() phone?: string;
    }
    const problem = await problemOf(validateInput(Texts, { text: 'Potluck \ud83c', pattern: '\udf89', phone: '+1415555\ud800' }));
    expect(problem.errors).toEqual([
      { path: 'text', message: 'Must be valid Unicode' },
      { path: 'pattern', message: 'Must be valid Unicode' },
      { path: 'phone', message: 'Must be valid Unicode' },
    ]);
  });

  it('keeps characters outside the basic plane, written as surrogate pairs', async () => {
    const dto = await validateInput(CreateSignupDto, { title: 'Potluck \ud83c\udf89', eventDate: '2026-12-01T10:00:00Z' });
    expect(dto.title).toBe('Potluck 🎉');
    expect(isWellFormed('🎉')).toBe(true);
    expect(isWellFormed('\ud83c')).toBe(false);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    'refuses %j as an unknown field, at the top and in nested objects',
    async (key) => {
      const body = JSON.parse(
        `{"${key}": 1, "name": "A", "selections": [{"type": "slot", "id": "0190a0b2-7a3c-7def-8a12-1234567890ab", "${key}": {"x": 1}}]}`,
      ) as unknown;
      const problem = await problemOf(validateInput(RegistrationDto, body));
      expect(problem.errors).toEqual([
        { path: key, message: 'Unknown field' },
        { path: `selections.0.${key}`, message: 'Unknown field' },
      ]);
    },
  );

  it('refuses a prototype key inside a value of the wrong type instead of failing', async () => {
    const problem = await problemOf(
      validateInput(CreateSignupDto, JSON.parse('{"title": {"constructor": 1}, "eventDate": "2026-12-01T10:00:00Z"}')),
    );
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      { path: 'title.constructor', message: 'Unknown field' },
      { path: 'title', message: 'Expected string' },
    ]);
  });

  it('refuses control characters in text but keeps newlines and tabs', async () => {
    const problem = await problemOf(validateInput(CreateSignupDto, { title: 'a\u0000b', eventDate: '2026-12-01T10:00:00Z' }));
    expect(problem.errors).toEqual([{ path: 'title', message: 'Must not contain control characters' }]);
    await expect(
      validateInput(CreateSignupDto, { title: 'x', description: 'line 1\n\tline 2', eventDate: '2026-12-01T10:00:00Z' }),
    ).resolves.toBeDefined();
  });
});

describe('phone numbers', () => {
  it.each(['+14155550123', '+44 20 7946 0958', '+33 1 23 45 67 89'])('accepts %j', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });

  it.each(['+1 415 555 0123 ext. 7', '4155550123', '+999123', '', 'call me'])('refuses %j', (phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
  });
});

describe('email addresses', () => {
  it.each(['ana@example.com', 'ana.lima+signups@mail.example.co.uk'])('accepts %s', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each(['ana@', 'ana lima@example.com', 'ana@example..com', 'ana@example.c'])('refuses %s', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });

  it(`refuses an address over ${EMAIL_MAX_LENGTH} characters`, () => {
    expect(isEmailAddress(`ana@${'b'.repeat(EMAIL_MAX_LENGTH)}.com`)).toBe(false);
  });
});

describe('ids and cursors', () => {
  it('refuses a malformed path id as Invalid uuid on the parameter', () => {
    expect(() => requireUuid('123', 'id')).toThrow(ProblemError);
    try {
      requireUuid('123', 'id');
    } catch (err) {
      expect((err as ProblemError).errors).toEqual([{ path: 'id', message: 'Invalid uuid' }]);
    }
  });

  const LIST: CursorList = { list: 'signups.participants.list', organizationId: 'org_a', livemode: false, parentId: 'p', filters: {} };

  it('round-trips a cursor to the position it names', () => {
    const cursor = encodeCursor({ createdAt: '2026-01-01T02:00:00.000+02:00', id: '0190A0B2-7A3C-7DEF-8A12-1234567890AB' }, LIST);
    expect(decodeCursor(cursor, 'createdAt', LIST)).toEqual({
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
    });
  });

  const b64 = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    ['not base64url JSON', '!!!'],
    ['JSON that is not an object', b64('[1,2]')],
    ['JSON null', b64('null')],
    ['the wrong keys', encodeCursor({ eventDate: '2026-01-01T00:00:00Z', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' }, LIST)],
    ['a timestamp that is not a date-time', encodeCursor({ createdAt: 'x', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' }, LIST)],
    [
      'a date JavaScript reads but Postgres cannot hold',
      encodeCursor({ createdAt: '+275760-09-13T00:00:00Z', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' }, LIST),
    ],
    ['an id that is not a uuid', encodeCursor({ createdAt: '2026-01-01T00:00:00Z', id: 'not-a-uuid' }, LIST)],
    ['an id of the wrong type', encodeCursor({ createdAt: '2026-01-01T00:00:00Z', id: 1 }, LIST)],
    ['a lone surrogate', encodeCursor({ createdAt: '2026-01-01T00:00:00Z', id: '\ud800' }, LIST)],
    ['no list tag', b64('{"createdAt":"2026-01-01T00:00:00Z","id":"0190a0b2-7a3c-7def-8a12-1234567890ab"}')],
  ])('refuses a cursor holding %s as Invalid cursor', (_case, cursor) => {
    expect(() => decodeCursor(cursor, 'createdAt', LIST)).toThrow(ProblemError);
    try {
      decodeCursor(cursor, 'createdAt', LIST);
    } catch (err) {
      expect((err as ProblemError).errors).toEqual([{ path: 'cursor', message: 'Invalid cursor' }]);
    }
  });

  it.each<[string, Partial<CursorList>]>([
    ['another organization', { organizationId: 'org_b' }],
    ['the other mode', { livemode: true }],
    ['another endpoint', { list: 'signups.list' }],
    ['another parent', { parentId: 'q' }],
    ['other filters', { filters: { status: 'cancelled' } }],
  ])('refuses a cursor of %s as a cursor of another list', (_case, change) => {
    const cursor = encodeCursor({ createdAt: '2026-01-01T00:00:00Z', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' }, { ...LIST, ...change });
    expect(() => decodeCursor(cursor, 'createdAt', LIST)).toThrow(ProblemError);
    try {
      decodeCursor(cursor, 'createdAt', LIST);
    } catch (err) {
      expect((err as ProblemError).errors).toEqual([{ path: 'cursor', message: expect.stringContaining('belongs to another list') }]);
    }
  });

  it('reads filters left undefined as absent, so a cursor keeps working whatever the order of the filters', () => {
    const cursor = encodeCursor(
      { createdAt: '2026-01-01T00:00:00Z', id: '0190a0b2-7a3c-7def-8a12-1234567890ab' },
      { ...LIST, filters: { b: 'x', a: undefined, c: 1 } },
    );
    expect(decodeCursor(cursor, 'createdAt', { ...LIST, filters: { c: 1, b: 'x' } }).id).toBe('0190a0b2-7a3c-7def-8a12-1234567890ab');
  });
});

describe('updatedSinceOf', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('reads a date-time with an offset as its instant', () => {
    expect(updatedSinceOf('2026-06-01T13:00:00+02:00', now)).toEqual(new Date('2026-06-01T11:00:00Z'));
    expect(updatedSinceOf(undefined, now)).toBeUndefined();
  });

  it('refuses an instant in the future as a 422 on updated_since', () => {
    expect(() => updatedSinceOf('2026-06-01T12:00:01Z', now)).toThrow(ProblemError);
    try {
      updatedSinceOf('2026-06-01T12:00:01Z', now);
    } catch (err) {
      expect((err as ProblemError).errors).toEqual([{ path: 'updated_since', message: 'Must not be in the future' }]);
    }
  });
});

describe('toE164', () => {
  it('normalizes international numbers written with spaces and punctuation', () => {
    expect(toE164('+1 (415) 555-0123')).toBe('+14155550123');
    expect(toE164('+44 7911 123456')).toBe('+447911123456');
    expect(toE164('+33612345678')).toBe('+33612345678');
  });
});

describe('isPlainText', () => {
  it('takes text with tabs and newlines, and refuses control characters and lone surrogates', () => {
    expect(isPlainText('CI key\tfor\r\nreports 🎉')).toBe(true);
    for (const value of ['a\u0000b', 'bell\u0007', 'del\u007f', 'half \ud800']) expect(isPlainText(value)).toBe(false);
  });
});

class HoursDto {
  @DecimalField({ required: true, min: 0, max: 1000, decimals: 2 }) hours!: number;
  @DateField() day?: string;
}

describe('decimal and date fields', () => {
  it.each([0, 0.01, 0.29, 1.15, 2.5, 999.99, 1000])('accepts %p hours', async (hours) => {
    await expect(validateInput(HoursDto, { hours })).resolves.toMatchObject({ hours });
  });

  it.each([
    [1.005, 'At most 2 decimals'],
    [5e-324, 'At most 2 decimals'],
    [-0.01, 'Must be at least 0'],
    [1000.01, 'Must be at most 1000'],
    [1e308, 'Must be at most 1000'],
    ['1', 'Expected number'],
    [null, 'Required'],
  ])('refuses %p hours: %s', async (hours, message) => {
    expect((await problemOf(validateInput(HoursDto, { hours }))).errors).toEqual([{ path: 'hours', message }]);
  });

  it('takes a calendar day, and nothing else, as a date', () => {
    expect(['2028-02-29', '2027-12-31', '0001-01-01'].every(isDate)).toBe(true);
    expect(['2027-02-29', '2027-13-01', '2027-1-01', '2027-01-01T00:00:00Z', '2027-01-00', ' 2027-01-01', 20270101].some(isDate)).toBe(
      false,
    );
  });

  it('refuses a date with a lone surrogate as text that is not Unicode', async () => {
    expect((await problemOf(validateInput(HoursDto, { hours: 1, day: '2027-01-0\ud800' }))).errors).toEqual([
      { path: 'day', message: 'Must be valid Unicode' },
    ]);
  });
});
