/** A dependency readiness depends on (database, bus, cache). check() rejects when it is not usable. */
export interface HealthIndicator {
  readonly name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(promise: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function checkReadiness(indicators: readonly HealthIndicator[]): Promise<ReadinessReport> {
  const results = await Promise.all(
    indicators.map(async (indicator) => {
      try {
        await withTimeout(indicator.check());
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
