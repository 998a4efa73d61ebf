import { isSuccess, type SendResult } from '../targets/index.js';

/** Statuses whose Retry-After is honoured. */
const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);
/** A Retry-After longer than this is not waited for longer than this. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** Each scheduled delay is moved by up to this fraction either way, so retries of many deliveries spread out. */
const JITTER = 0.1;

export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** Another attempt at `retryAt`. */
  | { kind: 'retry'; retryAt: Date }
  /** No more attempts; `gone` when the endpoint answered 410 (it pauses at once). */
  | { kind: 'failed'; gone: boolean };

/**
 * What follows attempt number `attempt` (1 for the first): success on a 2xx; after a failure,
 * the schedule's next delay with jitter (or the endpoint's Retry-After on 429/502/503/504),
 * until the schedule is used up; 410 Gone ends at once.
 */
export function outcomeOf(
  result: SendResult,
  attempt: number,
  schedule: readonly number[],
  now: Date,
  random = Math.random,
): AttemptOutcome {
  if (isSuccess(result)) return { kind: 'succeeded' };
  if (result.status === 410) return { kind: 'failed', gone: true };
  const delay = schedule[attempt - 1];
  if (delay === undefined) return { kind: 'failed', gone: false };
  const honoured = result.status !== null && RETRY_AFTER_STATUSES.has(result.status) && result.retryAfterSeconds !== null;
  const wait = honoured ? Math.min(result.retryAfterSeconds! * 1000, MAX_RETRY_AFTER_MS) : delay * (1 + JITTER * (2 * random() - 1));
  return { kind: 'retry', retryAt: new Date(now.getTime() + Math.round(wait)) };
}
