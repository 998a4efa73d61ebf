/** attended / (attended + noShow), to 4 decimals; null while nobody is either. */
export function attendanceRate(attended: number, noShow: number): number | null {
  const settled = attended + noShow;
  return settled === 0 ? null : Math.round((attended / settled) * 10_000) / 10_000;
}
