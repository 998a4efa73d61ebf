import { InProcessBus } from '#libs/bus';
import { ConfigError } from '#libs/config';
import { createLogger } from '#libs/observability';
import { bootApp } from './boot.js';
import { loadRetention, outboxPruneRules } from './retention.js';

describe('retention settings', () => {
  it("default to a 10-minute interval, batches of 500, and a day of published outbox rows and 8 days of processed ids (past the stream's 7)", () => {
    const config = loadRetention({});
    expect(config).toEqual({ intervalMs: 600_000, batchSize: 500, outboxHours: 24, processedEventsHours: 192 });
    expect(outboxPruneRules(config).map(({ table, after, retentionSeconds }) => ({ table, after, retentionSeconds }))).toEqual([
      { table: 'outbox', after: 'published_at', retentionSeconds: 86_400 },
      { table: 'processed_events', after: 'processed_at', retentionSeconds: 192 * 3600 },
    ]);
  });

  it.each([
    ['RETENTION_PROCESSED_EVENTS_HOURS', '0'],
    ['RETENTION_PROCESSED_EVENTS_HOURS', '168'],
    ['RETENTION_OUTBOX_HOURS', '-1'],
    ['RETENTION_BATCH_SIZE', 'lots'],
    ['RETENTION_BATCH_SIZE', '0'],
    ['RETENTION_INTERVAL_MS', '10'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadRetention({ [name]: value })).toThrow(ConfigError);
    expect(() => loadRetention({ [name]: value })).toThrow(name);
  });

  it('stops an app with a schema at boot, before it connects to its database', async () => {
    const bus = new InProcessBus(createLogger('test', 'silent'));
    let connected = false;
    const dataSource = (): never => {
      connected = true;
      throw new Error('connected to the database');
    };
    const boot = bootApp(
      { name: 'signups-service', database: { schema: 'x', entities: [], migrations: [] }, module: () => ({ module: class {} }) },
      { env: { RETENTION_PROCESSED_EVENTS_HOURS: '0' }, logLevel: 'silent', bus, dataSource, close: async () => undefined },
    );
    await expect(boot).rejects.toThrow(ConfigError);
    expect(connected).toBe(false);
  });
});
