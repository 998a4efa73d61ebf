import { occurrences } from './recurrence.js';

const NEW_YORK = 'America/New_York';
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('occurrences', () => {
  it('keeps 18:00 in New York across the November change of daylight saving time, weekly', () => {
    // Thursday 22 October 2026, 18:00 EDT (UTC-4); clocks fall back on 1 November.
    const dates = occurrences(new Date('2026-10-22T22:00:00Z'), NEW_YORK, { frequency: 'weekly', count: 3 }, 53);
    expect(iso(dates)).toEqual(['2026-10-29T22:00:00.000Z', '2026-11-05T23:00:00.000Z', '2026-11-12T23:00:00.000Z']);
  });

  it('keeps the wall-clock time across the March change, daily every 2 days, until an instant (inclusive)', () => {
    const dates = occurrences(
      new Date('2027-03-11T14:00:00Z'),
      NEW_YORK,
      { frequency: 'daily', interval: 2, until: '2027-03-15T13:00:00Z' },
      53,
    );
    expect(iso(dates)).toEqual(['2027-03-13T14:00:00.000Z', '2027-03-15T13:00:00.000Z']);
  });

  it('skips the months without the day, monthly', () => {
    const dates = occurrences(new Date('2027-01-31T17:00:00Z'), 'UTC', { frequency: 'monthly', count: 3 }, 53);
    expect(iso(dates)).toEqual(['2027-03-31T17:00:00.000Z', '2027-05-31T17:00:00.000Z', '2027-07-31T17:00:00.000Z']);
  });

  it('reads a time the clock skips with the offset before the change', () => {
    // 02:30 on 14 March 2027 does not exist in New York: it lands at 03:30 EDT.
    const dates = occurrences(new Date('2027-03-13T07:30:00Z'), NEW_YORK, { frequency: 'daily', count: 1 }, 53);
    expect(iso(dates)).toEqual(['2027-03-14T07:30:00.000Z']);
  });

  it('stops at the limit, so a caller can tell a rule that gives too many', () => {
    expect(occurrences(new Date('2027-01-01T00:00:00Z'), 'UTC', { frequency: 'daily', until: '2030-01-01T00:00:00Z' }, 53)).toHaveLength(
      53,
    );
  });
});
