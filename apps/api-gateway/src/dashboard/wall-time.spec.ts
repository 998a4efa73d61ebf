import { instantFromLocal, localInputValue } from './wall-time.js';

describe('datetime-local values on the clocks of a zone', () => {
  it('reads a wall time in the zone as its instant, and shows the instant as that wall time again', () => {
    expect(instantFromLocal('2027-06-01T18:00', 'America/New_York')).toBe('2027-06-01T22:00:00.000Z');
    expect(instantFromLocal('2027-01-15T09:30:15', 'Europe/Paris')).toBe('2027-01-15T08:30:15.000Z');
    expect(localInputValue('2027-06-01T22:00:00.000Z', 'America/New_York')).toBe('2027-06-01T18:00');
    expect(localInputValue('2027-06-01T22:00:00.000Z', 'Asia/Kolkata')).toBe('2027-06-02T03:30');
    expect(localInputValue(null, 'UTC')).toBe('');
  });

  it('reads a time the clocks skip later by the gap, and one they show twice as its first', () => {
    expect(instantFromLocal('2027-03-14T02:30', 'America/New_York')).toBe('2027-03-14T07:30:00.000Z');
    expect(instantFromLocal('2027-11-07T01:30', 'America/New_York')).toBe('2027-11-07T05:30:00.000Z');
  });

  it.each(['', 'tomorrow', '2027-02-30T10:00', '2027-13-01T10:00', '2027-06-01T24:00', '2027-06-01 18:00', '2027-06-01T18:00Z'])(
    'takes %j for no date',
    (value) => {
      expect(instantFromLocal(value, 'UTC')).toBeUndefined();
    },
  );
});
