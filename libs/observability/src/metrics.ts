import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withDeadline } from './deadline.js';

/** How long a gauge read at scrape time may take: a slow dependency never stalls the scrape. */
const COLLECT_TIMEOUT_MS = 1500;

export type { Counter, Gauge };

/**
 * One read shared by the gauges of a scrape (a registry collects them concurrently): a call
 * while a read is under way gets its answer, so two gauges fed by one query cost one query.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => (inFlight ??= read().finally(() => (inFlight = undefined)));
}

/** One Prometheus registry per app, labelled with the app name. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly busRequests: Counter<'subject' | 'outcome'>;
  readonly busDuration: Histogram<'subject'>;

  constructor(
    readonly app: string,
    options: { defaultMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ app });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.busRequests = new Counter({
      name: 'bus_requests_handled_total',
      help: 'Bus requests handled by this app, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      registers: [this.registry],
    });
    this.busDuration = new Histogram({
      name: 'bus_request_duration_seconds',
      help: 'Time this app spent handling a bus request, by subject',
      labelNames: ['subject'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [this.registry],
    });
  }

  /**
   * A counter of this app's registry, created on first use: the same name answers the same
   * counter, so features declare what they count where they count it.
   */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Counter<L>;
    return new Counter({ name, help, labelNames: [...labelNames], registers: [this.registry] });
  }

  /**
   * A gauge read at scrape time, created on first use like counter(): `collect` sets its values
   * within 1.5 s. A read that fails or is late removes the gauge's values (so `absent()` alerts
   * fire instead of a stale value) and is reported to `onError`; the scrape itself never fails.
   * It needs at least one label: a gauge without labels would show 0 instead of no value.
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => Promise<void>,
    onError: (err: unknown) => void,
  ): Gauge<L> {
    if (labelNames.length === 0) throw new Error(`The gauge ${name} needs a label: without one a failed read would show 0`);
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Gauge<L>;
    return new Gauge({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      async collect() {
        try {
          await withDeadline(collect(this), COLLECT_TIMEOUT_MS);
        } catch (err) {
          this.reset();
          onError(err);
        }
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
