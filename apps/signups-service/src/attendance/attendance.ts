/** Hours to the hundredth: sums of values that each have at most 2 decimals, without the float's noise. */
export function sumHours(hours: readonly number[]): number {
  return hours.reduce((total, h) => total + Math.round(h * 100), 0) / 100;
}

/** attended / (attended + noShow), to 4 decimals; null while nobody is either. */
export function attendanceRate(attended: number, noShow: number): number | null {
  const settled = attended + noShow;
  return settled === 0 ? null : Math.round((attended / settled) * 10_000) / 10_000;
}
