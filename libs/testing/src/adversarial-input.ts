import { createContext, Script } from 'node:vm';

/**
 * The CPU time one call over adversarial input may take, in milliseconds. Linear code takes a few
 * milliseconds on the largest inputs the apps accept; the super-linear patterns this guards
 * against took seconds.
 */
export const ADVERSARIAL_BUDGET_MS = 50;

/** The largest body the HTTP apps read (Fastify's bodyLimit): the size of a field no smaller maximum bounds. */
export const ONE_MIB = 1_048_576;

/** Node's limit on a request's line and headers together (16 KiB): the bound of every header and query string. */
export const MAX_HEADER_BYTES = 16_384;

/** Tries per call: the first ones also compile the code and its patterns, and a busy machine slows some of them. */
const TRIES = 5;

/** `length` characters: `prefix`, `unit` repeated, then `suffix`. */
export function repeatedTo(length: number, unit: string, prefix = '', suffix = ''): string {
  const fill = length - prefix.length - suffix.length;
  return prefix + unit.repeat(Math.ceil(fill / unit.length)).slice(0, fill) + suffix;
}

/**
 * The CPU time of `call` in milliseconds: the least of up to TRIES tries, stopping at the first
 * within `enough`. CPU time, not wall time, so other processes on the machine do not count. Each
 * try runs under vm's timeout, which interrupts a regular expression even mid-backtrack: a
 * super-linear call fails after `interruptAfterMs` of wall time instead of hanging the test run.
 */
export function cpuMillisOf(call: () => unknown, { enough = ADVERSARIAL_BUDGET_MS, interruptAfterMs = 5000 } = {}): number {
  const script = new Script('call()');
  const context = createContext({ call });
  let least = Infinity;
  for (let i = 0; i < TRIES && least >= enough; i++) {
    const before = process.cpuUsage();
    try {
      script.runInContext(context, { timeout: interruptAfterMs });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
        throw new Error(`Still running after ${interruptAfterMs} ms, interrupted`);
      throw err;
    }
    const used = process.cpuUsage(before);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}
