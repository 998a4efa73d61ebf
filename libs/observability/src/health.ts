import { withDeadline } from './deadline.js';

/** A dependency readiness depends on (database, bus, cache). check() rejects when it is not usable. */
export interface HealthIndicator {
  readonly name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  /** ok: takes work; unavailable: a dependency does not answer; shutting_down: stopping, send work elsewhere. */
  status: 'ok' | 'unavailable' | 'shutting_down';
  /** Why the app takes no new work, when it is shutting down. */
  detail?: string;
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

export interface ReadinessOptions {
  /** The app has begun shutting down: it is not ready, whatever its dependencies say (they are not asked). */
  shuttingDown?: boolean;
}

const SHUTTING_DOWN: ReadinessReport = {
  status: 'shutting_down',
  detail: 'The app is shutting down: it finishes the work in flight and takes no new work.',
  checks: {},
};

const CHECK_TIMEOUT_MS = 2000;

/** Whether the app can take work: every indicator answers within 2 s, and the app is not shutting down. */
export async function checkReadiness(indicators: readonly HealthIndicator[], options: ReadinessOptions = {}): Promise<ReadinessReport> {
  if (options.shuttingDown) return { ...SHUTTING_DOWN, checks: {} };
  const results = await Promise.all(
    indicators.map(async (indicator) => {
      try {
        await withDeadline(indicator.check(), CHECK_TIMEOUT_MS);
        return [indicator.name, { status: 'up' as const }] as const;
      } catch (err) {
        return [indicator.name, { status: 'down' as const, error: err instanceof Error ? err.message : String(err) }] as const;
      }
    }),
  );
  const checks = Object.fromEntries(results);
  const status = results.every(([, r]) => r.status === 'up') ? 'ok' : 'unavailable';
  return { status, checks };
}
