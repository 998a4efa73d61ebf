/** The apps' gauges of events not yet handled: outboxes not yet published, consumers not yet delivered or acknowledged. */
const BACKLOG = /^(?:outbox_pending_events|event_consumer_pending_messages|event_consumer_unacknowledged_messages)(?:\{[^}]*\})? (\S+)$/gm;
const POLL_MS = 200;

/**
 * The events the apps still hold, summed over every app's /metrics. The gauges' names are the
 * apps' (libs/runtime); finding none means they changed, and waiting on them would wait for nothing.
 */
async function backlog(origins: readonly string[]): Promise<number> {
  const texts = await Promise.all(origins.map(async (origin) => (await fetch(`${origin}/metrics`)).text()));
  const values = texts.flatMap((text) => [...text.matchAll(BACKLOG)].map((match) => Number(match[1])));
  if (values.length === 0) throw new Error('no app shows an outbox or consumer lag gauge on /metrics');
  return values.reduce((sum, value) => sum + value, 0);
}

/**
 * Waits until the events a round's requests made have been handled by every consumer (outboxes
 * and durable consumers empty), so that the round's CPU counts that work too, as the next
 * round's would otherwise; at most `timeoutMs`. The seconds waited.
 */
export async function settle(origins: readonly string[], timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while ((await backlog(origins)) > 0) {
    if (performance.now() - started > timeoutMs) {
      process.stderr.write(`consumers still busy after ${timeoutMs / 1000} s; measuring on\n`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return (performance.now() - started) / 1000;
}
