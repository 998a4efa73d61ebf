import { redeliveryDelay } from './nats-pull-worker.js';
import { consumerFilter } from './nats-stream.js';

describe('consumerFilter', () => {
  const subjects = ['p.events.signup.created', 'p.events.auth.apikey.revoked'];

  it('filters on the one subject of a single type', () => {
    expect(consumerFilter(subjects.slice(0, 1), 'p.events.>', '2.9.10')).toEqual({
      filter_subject: subjects[0],
      filter_subjects: undefined,
    });
  });

  it('filters on every subject, sorted, from nats-server 2.10', () => {
    expect(consumerFilter(subjects, 'p.events.>', '2.10.3').filter_subjects).toEqual([subjects[1], subjects[0]]);
  });

  it('falls back to the events wildcard on older servers', () => {
    expect(consumerFilter(subjects, 'p.events.>', '2.9.10')).toEqual({ filter_subject: 'p.events.>', filter_subjects: undefined });
  });
});

describe('redeliveryDelay', () => {
  it('starts at 100 ms, doubles, and stops growing at a minute', () => {
    expect([1, 2, 3, 20].map(redeliveryDelay)).toEqual([100, 200, 400, 60_000]);
  });
});
