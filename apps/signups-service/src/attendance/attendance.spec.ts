import { attendanceRate, sumHours } from './attendance.js';

describe('sumHours', () => {
  it('adds hours to the hundredth without floating-point noise', () => {
    expect(sumHours([0.1, 0.2])).toBe(0.3);
    expect(sumHours([1.15, 2.35, 0.01])).toBe(3.51);
  });

  it('is 0 for nobody', () => {
    expect(sumHours([])).toBe(0);
  });
});

describe('attendanceRate', () => {
  it('is the share of attended among those checked in or marked a no-show, to 4 decimals', () => {
    expect(attendanceRate(2, 1)).toBe(0.6667);
    expect(attendanceRate(3, 0)).toBe(1);
  });

  it('is null while nobody is checked in or marked a no-show', () => {
    expect(attendanceRate(0, 0)).toBeNull();
  });
});
