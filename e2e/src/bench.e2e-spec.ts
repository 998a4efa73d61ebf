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
  targets: { name: string; measured: number }[];
  checks: { name: string; ok: boolean; detail: string }[];
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
    expect(report.targets.map((t) => t.name)).toHaveLength(6);
    expect(stdout).toContain('| GET /signups/{id} (API key) |');
    expect(stdout).toContain(`results: ${join(out, file!)}`);
  }, 240_000);
});
