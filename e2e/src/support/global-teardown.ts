import type {} from './global-setup.js';

/** Stops the stack (which deletes its stream, rate limit counters, database and work folder) and its trace collector. */
export default async function globalTeardown(): Promise<void> {
  const running = globalThis.e2eStack;
  if (!running) return;
  await running.stack.stop();
  await running.collector.close();
}
