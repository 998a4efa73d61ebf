import type { DataSource } from 'typeorm';
import type { CloudEvent } from '#libs/contracts';
import { contextFromHeaders, runInContext, runWithRequestId } from '#libs/observability';
import { type Prepared, prepared, rowsOf } from '#libs/persistence';
import type { Bus } from './bus.js';
import type { BusLogger } from './envelope.js';
import { qualified } from './outbox.js';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  schema: string;
  bus: Bus;
  logger: BusLogger;
  /** Pause between rounds that found less than a full batch. */
  pollMs?: number;
  batchSize?: number;
}

interface OutboxRow {
  id: string;
  payload: CloudEvent;
  request_id: string | null;
  trace_context: Record<string, string> | null;
}

/** Publishes a row under the request id and in the trace of the request that caused it. */
function publishInCause(bus: Bus, { payload, request_id: requestId, trace_context: traceContext }: OutboxRow): Promise<void> {
  const publish = () => (requestId ? runWithRequestId(requestId, () => bus.publish(payload)) : bus.publish(payload));
  return traceContext
    ? runInContext(
        contextFromHeaders((name) => traceContext[name]),
        publish,
      )
    : publish();
}

/**
 * Publishes committed outbox rows. Each round claims unpublished rows with FOR UPDATE SKIP
 * LOCKED (so replicas share the table without publishing a row twice), publishes them and
 * marks them published in the same transaction. A row whose publish fails stays unpublished
 * and goes out in a later round; a re-publish after a crash is collapsed by the event id. Each
 * event goes out with the request id (x-request-id header) and in the trace that caused it.
 */
export class OutboxRelay {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private running?: Promise<void>;
  private stopped = false;
  private kicked = false;
  private wake: () => void = () => undefined;
  private readonly statements: { claim: Prepared; mark: Prepared };

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollMs = options.pollMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    const outbox = qualified(options.schema, 'outbox');
    this.statements = {
      claim: prepared(
        `SELECT "id", "payload", "request_id", "trace_context" FROM ${outbox} WHERE "published_at" IS NULL ORDER BY "created_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
      ),
      mark: prepared(`UPDATE ${outbox} SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`),
    };
  }

  start(): void {
    this.stopped = false;
    this.running ??= this.loop();
  }

  /** Runs a round soon: call right after committing a transaction that enqueued events. */
  kick(): void {
    this.kicked = true;
    this.wake();
  }

  /** Finishes the round in progress, runs one last round (events its app's final requests committed), and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    const wasRunning = this.running !== undefined;
    await this.running;
    this.running = undefined;
    if (wasRunning) await this.round();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      const published = await this.round();
      if (published < this.batchSize && !this.kicked && !this.stopped) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** One claim-publish-mark transaction; returns how many rows went out. */
  private async round(): Promise<number> {
    const { dataSource, schema, bus, logger } = this.options;
    try {
      return await dataSource.transaction(async (manager) => {
        const rows = await rowsOf<OutboxRow>(manager, this.statements.claim, [this.batchSize]);
        const results = await Promise.allSettled(
          rows.map(async (row) => {
            await publishInCause(bus, row);
            return row.id;
          }),
        );
        const published = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const failure = results.find((r) => r.status === 'rejected');
        if (failure)
          logger.warn({ err: failure.reason, schema, unpublished: rows.length - published.length }, 'outbox publish failed; will retry');
        if (published.length > 0) {
          await rowsOf(manager, this.statements.mark, [published]);
        }
        return published.length;
      });
    } catch (err) {
      logger.error({ err, schema }, 'outbox relay round failed');
      return 0;
    }
  }
}
