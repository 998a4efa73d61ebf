import { ProblemError } from '#libs/problem';
import { CreateSignupDto, UpdateSignupDto } from './signups.js';
import { DEFAULT_TIME_ZONE, isTimeZone, TIME_ZONE_MESSAGE, timeZoneOf, validateInput } from './validation.js';

const EVENT = { title: 'Potluck', eventDate: '2026-12-24T18:00:00Z' };

async function errorsOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return (err as ProblemError).errors;
  }
  throw new Error('expected a problem');
}

describe('timeZoneOf', () => {
  it.each(['America/New_York', 'Europe/Berlin', 'Australia/Adelaide', 'America/St_Johns', 'Pacific/Chatham', 'UTC'])(
    'keeps %s, a name the runtime lists, as sent',
    (zone) => {
      expect(timeZoneOf(zone)).toBe(zone);
    },
  );

  it('takes a name Intl reads but does not list as the listed name it stands for', () => {
    const listed = new Set(Intl.supportedValuesOf('timeZone'));
    expect(timeZoneOf('US/Eastern')).toBe('America/New_York');
    expect(timeZoneOf('america/new_york')).toBe('America/New_York');
    expect(timeZoneOf('Etc/UTC')).toBe('UTC');
    expect(timeZoneOf('utc')).toBe('UTC');
    // The runtime lists one of the two names of Kolkata and Kyiv (which one depends on its ICU): both are taken as the listed one.
    for (const [a, b] of [
      ['Asia/Kolkata', 'Asia/Calcutta'],
      ['Europe/Kyiv', 'Europe/Kiev'],
    ] as const) {
      const name = listed.has(a) ? a : b;
      expect(listed.has(name)).toBe(true);
      expect([timeZoneOf(a), timeZoneOf(b)]).toEqual([name, name]);
    }
  });

  it('always takes the default zone', () => {
    expect(timeZoneOf(DEFAULT_TIME_ZONE)).toBe('UTC');
  });

  it.each([
    ['an offset', '+05:00'],
    ['an offset without a colon', '+0500'],
    ['a negative offset', '-05'],
    ['GMT with an offset', 'GMT+1'],
    ['UTC with an offset', 'UTC+01:00'],
    ['a fixed-offset zone of the database', 'Etc/GMT+1'],
    ['an abbreviation the database reads as Panama', 'EST'],
    ['an abbreviation in lower case', 'mst'],
    ['a European abbreviation', 'CET'],
    ['a made-up place', 'Mars/Olympus'],
    ['an empty string', ''],
    ['a relative path', '../etc/passwd'],
    ['a path in a zone', 'America/../Europe/Berlin'],
    ['a leading slash', '/America/New_York'],
    ['a trailing space', 'America/New_York '],
    ['a Cyrillic o', 'America/New_Y\u043Erk'],
    ['a fullwidth letter', '\uFF35TC'],
    ['a Kelvin sign for K', 'Asia/\u212Aolkata'],
    ['a dotless i', 'Europe/Berl\u0131n'],
    ['a zero-width space', 'Europe/\u200BBerlin'],
    ['a NUL', 'UTC\u0000'],
    ['a lone surrogate', '\uD800'],
    ['a name over 64 characters', `America/${'A'.repeat(60)}`],
    ['a huge string', 'x'.repeat(1_000_000)],
  ])('refuses %s', (_what, value) => {
    expect(timeZoneOf(value)).toBeUndefined();
    expect(isTimeZone(value)).toBe(false);
  });

  it.each([
    ['a number', 5],
    ['null', null],
    ['a boolean', true],
    ['an array', ['UTC']],
    ['an object', { toString: () => 'UTC' }],
  ])('refuses %s', (_what, value) => {
    expect(timeZoneOf(value)).toBeUndefined();
  });
});

describe('TimeZoneField', () => {
  it('stores the listed name of a zone written another way', async () => {
    expect((await validateInput(CreateSignupDto, { ...EVENT, timeZone: 'US/Pacific' })).timeZone).toBe('America/Los_Angeles');
    expect((await validateInput(UpdateSignupDto, { timeZone: 'Europe/Paris' })).timeZone).toBe('Europe/Paris');
  });

  it('leaves a signup without a zone without one (its organization gives it)', async () => {
    expect((await validateInput(CreateSignupDto, EVENT)).timeZone).toBeUndefined();
  });

  it.each([
    ['+05:00', TIME_ZONE_MESSAGE],
    ['GMT+1', TIME_ZONE_MESSAGE],
    ['', TIME_ZONE_MESSAGE],
    ['Mars/Olympus', TIME_ZONE_MESSAGE],
    ['x'.repeat(10_001), TIME_ZONE_MESSAGE],
    ['\uD800', 'Must be valid Unicode'],
    [42, 'Expected string'],
    [null, 'Expected string'],
    [['UTC'], 'Expected string'],
  ])('refuses %j on timeZone with one message', async (timeZone, message) => {
    expect(await errorsOf(validateInput(CreateSignupDto, { ...EVENT, timeZone }))).toEqual([{ path: 'timeZone', message }]);
    expect(await errorsOf(validateInput(UpdateSignupDto, { timeZone }))).toEqual([{ path: 'timeZone', message }]);
  });
});
