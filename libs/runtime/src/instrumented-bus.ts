import type { Bus, ConsumerBacklog } from '#libs/bus';
import type { HandlersOf, ServiceName } from '#libs/contracts';
import { type Logger, type Metrics, sharedRead } from '#libs/observability';
import { asProblem } from '#libs/problem';

type AnyHandler = (req: never) => Promise<unknown>;

/**
 * The consumer lag gauges: for each durable consumer the app runs (by number of running
 * subscriptions), the events not yet delivered and those delivered but not yet acknowledged,
 * read from the bus at scrape time, all consumers at once.
 */
function consumerLagGauges(bus: Bus, metrics: Metrics, logger: Logger): Map<string, number> {
  const consumers = new Map<string, number>();
  const backlogs = sharedRead(() =>
    Promise.all([...consumers.keys()].map(async (consumer) => ({ consumer, backlog: await bus.backlog(consumer) }))),
  );
  const lag = (name: string, help: string, field: keyof ConsumerBacklog) =>
    metrics.gauge(
      name,
      help,
      ['consumer'],
      async (gauge) => {
        gauge.reset();
        for (const { consumer, backlog } of await backlogs()) gauge.set({ consumer }, backlog[field]);
      },
      (err) => logger.warn({ err }, 'consumer lag not read'),
    );
  lag('event_consumer_pending_messages', 'Events in the stream not yet delivered to this durable consumer', 'pending');
  lag('event_consumer_unacknowledged_messages', 'Events delivered to this durable consumer and not yet acknowledged', 'unacknowledged');
  return consumers;
}

/**
 * The app's view of the shared bus: every request it serves is counted by outcome (ok or the
 * problem code) and timed, and every durable consumer it runs has its lag, in the app's own
 * metrics.
 */
export function instrumentBus(bus: Bus, metrics: Metrics, logger: Logger): Bus {
  const consumers = consumerLagGauges(bus, metrics, logger);
  const measure =
    (subject: string, handler: AnyHandler): AnyHandler =>
    async (req) => {
      const stop = metrics.busDuration.startTimer({ subject });
      try {
        const result = await handler(req);
        metrics.busRequests.inc({ subject, outcome: 'ok' });
        return result;
      } catch (err) {
        metrics.busRequests.inc({ subject, outcome: asProblem(err).code });
        throw err;
      } finally {
        stop();
      }
    };
  return {
    request: (subject, payload, options) => bus.request(subject, payload, options),
    requestJson: (subject, payload, options) => bus.requestJson(subject, payload, options),
    serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>) {
      const measured = Object.fromEntries(
        Object.entries(handlers as Record<string, AnyHandler>).map(([subject, h]) => [subject, measure(subject, h)]),
      );
      return bus.serve(owner, measured as HandlersOf<O>);
    },
    publish: (event) => bus.publish(event),
    consume: async (options, handler) => {
      const subscription = await bus.consume(options, handler);
      const { durable } = options;
      consumers.set(durable, (consumers.get(durable) ?? 0) + 1);
      let counted = true;
      return {
        stop: () => {
          if (counted) {
            counted = false;
            const left = consumers.get(durable)! - 1;
            if (left > 0) consumers.set(durable, left);
            else consumers.delete(durable);
          }
          return subscription.stop();
        },
      };
    },
    backlog: (durable) => bus.backlog(durable),
    broadcast: (types, handler) => bus.broadcast(types, handler),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
