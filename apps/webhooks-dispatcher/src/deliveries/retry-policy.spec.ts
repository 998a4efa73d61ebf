import type { SendResult } from '../targets/index.js';
import { outcomeOf } from './retry-policy.js';

const SCHEDULE = [5_000, 300_000, 1_800_000];
const NOW = new Date('2026-11-22T10:00:00.000Z');
const answer = (status: number | null, extra: Partial<SendResult> = {}): SendResult => ({
  status,
  body: null,
  latencyMs: 5,
  error: status === null ? 'connect ECONNREFUSED 127.0.0.1:1' : null,
  retryAfterSeconds: null,
  ...extra,
});
const at = (ms: number) => ({ kind: 'retry', retryAt: new Date(NOW.getTime() + ms) });

describe('outcomeOf', () => {
  it('succeeds on any 2xx', () => {
    expect(outcomeOf(answer(200), 1, SCHEDULE, NOW)).toEqual({ kind: 'succeeded' });
    expect(outcomeOf(answer(204), 3, SCHEDULE, NOW)).toEqual({ kind: 'succeeded' });
  });

  it('retries after the scheduled delay of the attempt that failed', () => {
    const middle = () => 0.5;
    expect(outcomeOf(answer(500), 1, SCHEDULE, NOW, middle)).toEqual(at(5_000));
    expect(outcomeOf(answer(null), 2, SCHEDULE, NOW, middle)).toEqual(at(300_000));
    expect(outcomeOf(answer(302), 3, SCHEDULE, NOW, middle)).toEqual(at(1_800_000));
  });

  it('moves each delay by at most 10% either way', () => {
    expect(outcomeOf(answer(500), 2, SCHEDULE, NOW, () => 0)).toEqual(at(270_000));
    expect(outcomeOf(answer(500), 2, SCHEDULE, NOW, () => 1)).toEqual(at(330_000));
  });

  it('fails once the schedule is used up', () => {
    expect(outcomeOf(answer(500), 4, SCHEDULE, NOW)).toEqual({ kind: 'failed', gone: false });
  });

  it('ends at once on 410 Gone', () => {
    expect(outcomeOf(answer(410), 1, SCHEDULE, NOW)).toEqual({ kind: 'failed', gone: true });
  });

  it.each([429, 502, 503, 504])('honours Retry-After on %i', (status) => {
    expect(outcomeOf(answer(status, { retryAfterSeconds: 120 }), 1, SCHEDULE, NOW)).toEqual(at(120_000));
  });

  it('ignores Retry-After on other statuses and caps a very long one at a day', () => {
    expect(outcomeOf(answer(500, { retryAfterSeconds: 120 }), 1, SCHEDULE, NOW, () => 0.5)).toEqual(at(5_000));
    expect(outcomeOf(answer(503, { retryAfterSeconds: 10 * 86_400 }), 1, SCHEDULE, NOW)).toEqual(at(86_400_000));
  });
});
