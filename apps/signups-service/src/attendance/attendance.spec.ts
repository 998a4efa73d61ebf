import { attendanceRate } from './attendance.js';

describe('attendanceRate', () => {
  it('is the share of attended among those checked in or marked a no-show, to 4 decimals', () => {
    expect(attendanceRate(2, 1)).toBe(0.6667);
    expect(attendanceRate(3, 0)).toBe(1);
  });

  it('is null while nobody is checked in or marked a no-show', () => {
    expect(attendanceRate(0, 0)).toBeNull();
  });
});
