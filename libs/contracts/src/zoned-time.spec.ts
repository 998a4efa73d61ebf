import { formatDateTime, formatTimeRange } from './zoned-time.js';

describe('formatDateTime', () => {
  it.each([
    ['America/New_York', '2026-12-05T22:00:00Z', 'Sat, Dec 5, 2026, 5:00 PM EST'],
    ['America/New_York', '2026-07-04T16:30:00Z', 'Sat, Jul 4, 2026, 12:30 PM EDT'],
    ['UTC', '2027-06-01T18:00:00.000Z', 'Tue, Jun 1, 2027, 6:00 PM UTC'],
    ['America/Los_Angeles', '2026-12-06T07:59:00Z', 'Sat, Dec 5, 2026, 11:59 PM PST'],
    // Zones English has no short name for are named by their offset.
    ['Europe/Berlin', '2026-12-05T22:00:00Z', 'Sat, Dec 5, 2026, 11:00 PM GMT+1'],
    ['Europe/Berlin', '2026-06-05T22:00:00Z', 'Sat, Jun 6, 2026, 12:00 AM GMT+2'],
    ['Europe/London', '2026-12-05T22:00:00Z', 'Sat, Dec 5, 2026, 10:00 PM GMT'],
    // Half- and quarter-hour offsets.
    ['Asia/Calcutta', '2026-12-05T22:00:00Z', 'Sun, Dec 6, 2026, 3:30 AM GMT+5:30'],
    ['Asia/Kathmandu', '2026-12-05T22:00:00Z', 'Sun, Dec 6, 2026, 3:45 AM GMT+5:45'],
    ['America/St_Johns', '2026-12-05T22:00:00Z', 'Sat, Dec 5, 2026, 6:30 PM GMT-3:30'],
    ['Australia/Adelaide', '2026-12-05T22:00:00Z', 'Sun, Dec 6, 2026, 8:30 AM GMT+10:30'],
    ['Pacific/Chatham', '2026-12-05T22:00:00Z', 'Sun, Dec 6, 2026, 11:45 AM GMT+13:45'],
  ])('shows %s %s as %s', (zone, instant, text) => {
    expect(formatDateTime(instant, zone)).toBe(text);
  });

  it('takes a Date as well as an ISO string', () => {
    expect(formatDateTime(new Date('2026-12-05T22:00:00Z'), 'America/Chicago')).toBe('Sat, Dec 5, 2026, 4:00 PM CST');
  });

  it('reads an ISO string with an offset as the instant it names', () => {
    expect(formatDateTime('2026-12-05T17:00:00-05:00', 'UTC')).toBe('Sat, Dec 5, 2026, 10:00 PM UTC');
  });

  it('shows both sides of the spring-forward gap and the fall-back hour by their own zone names', () => {
    // 2026-03-08: New York jumps from 2:00 EST to 3:00 EDT; 2026-11-01: from 2:00 EDT back to 1:00 EST.
    expect(formatDateTime('2026-03-08T06:59:00Z', 'America/New_York')).toBe('Sun, Mar 8, 2026, 1:59 AM EST');
    expect(formatDateTime('2026-03-08T07:00:00Z', 'America/New_York')).toBe('Sun, Mar 8, 2026, 3:00 AM EDT');
    expect(formatDateTime('2026-11-01T05:30:00Z', 'America/New_York')).toBe('Sun, Nov 1, 2026, 1:30 AM EDT');
    expect(formatDateTime('2026-11-01T06:30:00Z', 'America/New_York')).toBe('Sun, Nov 1, 2026, 1:30 AM EST');
  });

  it('writes plain spaces only, so a text message or a mail header carries it as it is', () => {
    expect(formatDateTime('2026-12-05T22:00:00Z', 'America/New_York')).toMatch(/^[\x20-\x7e]+$/);
  });

  it('refuses what is not an instant, and a zone Intl does not know', () => {
    expect(() => formatDateTime('not a date', 'UTC')).toThrow(RangeError);
    expect(() => formatDateTime(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    expect(() => formatDateTime('2026-12-05T22:00:00Z', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('formatTimeRange', () => {
  const ny = 'America/New_York';

  it('says the day once and the period once for a slot within an afternoon', () => {
    expect(formatTimeRange('2026-12-05T22:00:00Z', '2026-12-06T00:00:00Z', ny)).toBe('Sat, Dec 5, 2026, 5:00 – 7:00 PM EST');
  });

  it('leaves the day out when asked', () => {
    expect(formatTimeRange('2026-12-05T22:00:00Z', '2026-12-06T00:00:00Z', ny, { withDate: false })).toBe('5:00 – 7:00 PM EST');
  });

  it('names both periods across noon', () => {
    expect(formatTimeRange('2026-12-05T16:00:00Z', '2026-12-05T18:30:00Z', ny)).toBe('Sat, Dec 5, 2026, 11:00 AM – 1:30 PM EST');
  });

  it('keeps both days for a span past midnight, even when asked to leave the day out', () => {
    const text = 'Sat, Dec 5, 2026, 11:00 PM EST – Sun, Dec 6, 2026, 1:00 AM EST';
    expect(formatTimeRange('2026-12-06T04:00:00Z', '2026-12-06T06:00:00Z', ny)).toBe(text);
    expect(formatTimeRange('2026-12-06T04:00:00Z', '2026-12-06T06:00:00Z', ny, { withDate: false })).toBe(text);
  });

  it('names each end by its own zone across the fall-back change', () => {
    expect(formatTimeRange('2026-11-01T05:00:00Z', '2026-11-01T06:30:00Z', ny)).toBe('Sun, Nov 1, 2026, 1:00 AM EDT – 1:30 AM EST');
  });

  it('names each end by its own zone across the spring-forward change', () => {
    expect(formatTimeRange('2026-03-08T06:30:00Z', '2026-03-08T07:30:00Z', ny, { withDate: false })).toBe('1:30 AM EST – 3:30 AM EDT');
  });

  it('tells apart offsets where the short names are alike', () => {
    expect(formatTimeRange('2026-10-25T00:00:00Z', '2026-10-25T02:00:00Z', 'Europe/Berlin')).toBe(
      'Sun, Oct 25, 2026, 2:00 AM GMT+2 – 3:00 AM GMT+1',
    );
  });

  it('shows a half-hour zone by its offset', () => {
    expect(formatTimeRange('2026-12-05T12:30:00Z', '2026-12-05T14:30:00Z', 'Asia/Calcutta')).toBe(
      'Sat, Dec 5, 2026, 6:00 – 8:00 PM GMT+5:30',
    );
  });

  it('shows an empty span as its one time', () => {
    expect(formatTimeRange('2026-12-05T22:00:00Z', '2026-12-05T22:00:00Z', ny)).toBe('Sat, Dec 5, 2026, 5:00 PM EST');
  });

  it('writes plain spaces around the dash and before the period', () => {
    expect(formatTimeRange('2026-12-05T22:00:00Z', '2026-12-06T00:00:00Z', ny)).toMatch(/^[\x20-\x7e]+ – [\x20-\x7e]+$/);
  });
});
