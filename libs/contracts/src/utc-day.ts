export const SECONDS_PER_DAY = 86_400;

/** The UTC day of `now` (YYYY-MM-DD) and the seconds left in it (at least 1): daily limits and caps start again at UTC midnight. */
export function utcDay(now = Date.now()): { day: string; secondsLeft: number } {
  const day = new Date(now).toISOString().slice(0, 10);
  const midnight = Date.parse(`${day}T00:00:00.000Z`) + SECONDS_PER_DAY * 1000;
  return { day, secondsLeft: Math.max(1, Math.ceil((midnight - now) / 1000)) };
}
