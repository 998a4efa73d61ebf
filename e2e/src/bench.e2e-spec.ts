import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

interface BenchResults {
  results: {
    id: string;
    rounds: { requests: number; errors: number }[];
    summary: { requestsPerSecond: number; cpuMs?: Record<string, number>; extra?: Record<string, number> };
  }[];
  targets: { name: string; goal: string; measured: number; met: boolean }[];
  checks: { name: string; ok: boolean; detail: string }[];
  machine: { cpuModel?: string };
  calibration: Record<string, number>;
  memory: Record<string, number>[];
  allInOne: {
    start: { firstStartSeconds: number; warmSeconds: number; warmBannerSeconds: number; buildSeconds?: number };
    results: { id: string; rounds: { requests: number; errors: number }[]; summary: { cpuMs?: Record<string, number> } }[];
    memory: Record<string, number>[];
  };
}

const SCENARIOS = [
  'hello',
  'read-baseline',
  'write-baseline',
  'read-baseline-1',
  'get-signup',
  'get-signup-1',
  'list-signups',
  'register',
  'contention',
  'promotions',
  'webhooks-burst',
  'webhooks-fanout',
  'webhooks-paced',
  'export',
];

/**
 * `npm run bench` in its smoke mode: its own stack and baselines, every scenario once for a
 * second (or a few events), so the harness keeps working. It measures nothing worth keeping.
 */
describe('the benchmark harness', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('runs every scenario without an error and writes the results', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/bench/src/main.js', '--smoke', '--out', out], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const [file] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, file!), 'utf8')) as BenchResults;

    expect(report.results.map((r) => r.id)).toEqual(SCENARIOS);
    for (const result of report.results) {
      expect({ id: result.id, errors: result.rounds[0]!.errors }).toEqual({ id: result.id, errors: 0 });
      expect(result.rounds[0]!.requests).toBeGreaterThan(0);
      expect(result.summary.requestsPerSecond).toBeGreaterThan(0);
    }
    // CPU is read from /proc: elsewhere the bench runs without its CPU table.
    if (process.platform === 'linux') {
      const registration = report.results.find((r) => r.id === 'register')!.summary.cpuMs ?? {};
      for (const group of ['api-gateway', 'signups-service', 'postgres'])
        expect({ group, used: (registration[group] ?? 0) > 0 }).toEqual({ group, used: true });
      expect(report.results.find((r) => r.id === 'write-baseline')!.summary.cpuMs).toHaveProperty(['baseline responder']);
      expect(stdout).toContain('| CPU ms per request |');
    }
    expect(report.checks).toEqual([
      { name: 'contention, round 1', ok: true, detail: '10 confirmed of 10 places; slot taken 50 of 50' },
      { name: 'promotions, round 1', ok: true, detail: '200 promoted for 200 cancellations; 250 confirmed, slot taken 250 of 250' },
      { name: 'export, round 1', ok: true, detail: '500 rows of 500 participants' },
    ]);
    expect(Object.keys(report.results.find((r) => r.id === 'export')!.summary.extra ?? {})).toEqual(
      expect.arrayContaining(['gateway peak RSS MiB', 'signups-service peak RSS MiB']),
    );
    expect(report.targets.map((t) => t.name)).toHaveLength(10);
    for (const target of report.targets)
      expect(target).toEqual({
        name: expect.any(String),
        goal: expect.any(String),
        measured: expect.any(Number),
        met: expect.any(Boolean),
      });
    // Each event of the fan-out reached all 10 endpoints of its organization.
    expect(report.results.find((r) => r.id === 'webhooks-fanout')!.rounds[0]!.requests).toBe(200);
    expect(report.calibration).toEqual({
      helloRequestsPerSecond: expect.any(Number),
      readBaselineRequestsPerSecond: expect.any(Number),
      writeBaselineRequestsPerSecond: expect.any(Number),
      readBaselineP50MsAtOneConnection: expect.any(Number),
    });
    expect(report.machine.cpuModel).toEqual(expect.any(String));
    if (process.platform === 'linux') {
      expect(Object.keys(report.memory[0]!).sort()).toEqual(
        ['api-gateway', 'auth-server', 'mcp-server', 'reminders-service', 'signups-service', 'webhooks-dispatcher'].sort(),
      );
      expect(stdout).toContain('| resident MiB after |');
    }
    // npm start, measured too: its start times (no build in the smoke run), reads and registrations through its one process.
    expect(report.allInOne.start).toEqual({
      firstStartSeconds: expect.any(Number),
      warmSeconds: expect.any(Number),
      warmBannerSeconds: expect.any(Number),
    });
    expect(report.allInOne.results.map((r) => ({ id: r.id, errors: r.rounds[0]!.errors, answered: r.rounds[0]!.requests > 0 }))).toEqual([
      { id: 'aio-get-signup', errors: 0, answered: true },
      { id: 'aio-register', errors: 0, answered: true },
    ]);
    if (process.platform === 'linux') {
      expect(report.allInOne.results[1]!.summary.cpuMs?.['all-in-one']).toBeGreaterThan(0);
      expect(report.allInOne.memory[0]!['all-in-one']).toBeGreaterThan(0);
    }
    expect(stdout).toContain('## npm start (all-in-one)');
    expect(stdout).toContain('| GET /signups/{id} (API key) |');
    expect(stdout).toContain(`results: ${join(out, file!)}`);
  }, 240_000);
});
