import type { Bus } from '#libs/bus';
import type { HandlersOf, ServiceName } from '#libs/contracts';
import type { Metrics } from '#libs/observability';
import { asProblem } from '#libs/problem';

type AnyHandler = (req: never) => Promise<unknown>;

/**
 * The app's view of the shared bus: every request it serves is counted by outcome (ok or the
 * problem code) and timed, in the app's own metrics.
 */
export function instrumentBus(bus: Bus, metrics: Metrics): Bus {
  const measure = (subject: string, handler: AnyHandler): AnyHandler => async (req) => {
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
    serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>) {
      const measured = Object.fromEntries(Object.entries(handlers as Record<string, AnyHandler>).map(([subject, h]) => [subject, measure(subject, h)]));
      return bus.serve(owner, measured as HandlersOf<O>);
    },
    publish: (event) => bus.publish(event),
    consume: (options, handler) => bus.consume(options, handler),
    broadcast: (types, handler) => bus.broadcast(types, handler),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
