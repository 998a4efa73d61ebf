import type { DataSource } from 'typeorm';
import { STREAM_MAX_AGE_MS } from '#libs/bus';
import { type ConfigOf, type Env, env, loadConfig } from '#libs/config';
import type { Logger } from '#libs/observability';
import { pruneOnce, type PruneResult, type PruneRule } from '#libs/persistence';

const HOUR_SECONDS = 3600;

/** A retention setting, in hours (at least `min`). */
export function retentionHours(name: string, fallback: number, min = 1) {
  return env.int(name, fallback, { min, max: 24 * 3650 });
}

/**
 * The retention job of every app with a schema (docs/decisions.md, "Retention"): how often it
 * runs, how many rows a statement deletes, and how long published outbox rows and processed
 * event ids are kept. Processed ids must outlive the stream's retention (7 days): a durable
 * consumer created or resumed within it may be handed any event the stream still holds, and
 * the processed ids are what keep it from being applied twice.
 */
export const retentionSpec = {
  intervalMs: env.int('RETENTION_INTERVAL_MS', 600_000, { min: 1_000, max: 86_400_000 }),
  batchSize: env.int('RETENTION_BATCH_SIZE', 500, { min: 1, max: 10_000 }),
  outboxHours: retentionHours('RETENTION_OUTBOX_HOURS', 24),
  processedEventsHours: retentionHours(
    'RETENTION_PROCESSED_EVENTS_HOURS',
    8 * 24,
    Math.ceil(STREAM_MAX_AGE_MS / (HOUR_SECONDS * 1000)) + 1,
  ),
} as const;

export type RetentionConfig = ConfigOf<typeof retentionSpec>;

export function loadRetention(environment: Env): RetentionConfig {
  return loadConfig(retentionSpec, environment);
}

/** The outbox rows once published, and the processed event ids: in every schema with an outbox. */
export function outboxPruneRules(config: RetentionConfig): PruneRule[] {
  return [
    { table: 'outbox', key: ['id'], after: 'published_at', retentionSeconds: config.outboxHours * HOUR_SECONDS },
    {
      table: 'processed_events',
      key: ['consumer', 'event_id'],
      after: 'processed_at',
      retentionSeconds: config.processedEventsHours * HOUR_SECONDS,
    },
  ];
}

/** Seconds in the given hours, for an app's own rules. */
export function hoursToSeconds(hours: number): number {
  return hours * HOUR_SECONDS;
}

/**
 * Runs pruneOnce on the app's schema every interval, on every replica (the lease lets one at a
 * time through). A failed run is logged and the next interval tries again.
 */
export class RetentionJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<PruneResult>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly rules: readonly PruneRule[],
    private readonly config: RetentionConfig,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(
      () => void this.runOnce().catch((err: unknown) => this.logger.warn({ err }, 'retention run failed')),
      this.config.intervalMs,
    );
    this.timer.unref();
  }

  /** One run (or the one already running): rows deleted per table, or null when another replica holds the job. */
  runOnce(): Promise<PruneResult> {
    this.running ??= (async () => {
      try {
        const deleted = await pruneOnce(this.dataSource, this.schema, this.rules, {
          batchSize: this.config.batchSize,
          stopping: () => this.stopped,
        });
        if (deleted && Object.values(deleted).some((n) => n > 0)) this.logger.info({ deleted }, 'old rows deleted');
        return deleted;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Stops the timer and waits for a run in flight, which ends after its current batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
