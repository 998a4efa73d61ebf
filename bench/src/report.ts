import type { Measurement } from './load.js';
import { median, round } from './stats.js';

export interface ScenarioResult {
  id: string;
  title: string;
  /** What its requests per second are compared with. */
  baseline?: string;
  rounds: Measurement[];
  /** Each figure's median over the rounds; errors and requests summed. */
  summary: Measurement;
  /** requests per second over the baseline's, both medians of this run. */
  ratio?: number;
}

export interface Target {
  name: string;
  goal: string;
  measured: number;
  met: boolean;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The keys of a per-round record, medians taken over the rounds (0 where a round lacks one). */
function medians(rounds: Measurement[], pick: (m: Measurement) => Record<string, number> | undefined): Record<string, number> | undefined {
  const keys = [...new Set(rounds.flatMap((m) => Object.keys(pick(m) ?? {})))];
  return keys.length > 0 ? Object.fromEntries(keys.map((key) => [key, median(rounds.map((m) => pick(m)?.[key] ?? 0))])) : undefined;
}

export function summarize(rounds: Measurement[]): Measurement {
  const mid = (pick: (m: Measurement) => number) => median(rounds.map(pick));
  const extra = medians(rounds, (m) => m.extra);
  const cpuMs = medians(rounds, (m) => m.cpuMs);
  return {
    requestsPerSecond: mid((m) => m.requestsPerSecond),
    p50Ms: mid((m) => m.p50Ms),
    p99Ms: mid((m) => m.p99Ms),
    requests: rounds.reduce((sum, m) => sum + m.requests, 0),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    durationMs: mid((m) => m.durationMs),
    ...(extra && { extra }),
    ...(cpuMs && { cpuMs }),
  };
}

const cell = (value: number | undefined, digits = 2) => (value === undefined || Number.isNaN(value) ? '–' : String(round(value, digits)));

export function markdown(results: ScenarioResult[], targets: Target[], checks: Check[], memory: Record<string, number>[] = []): string {
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | errors | ratio to baseline | notes |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...results.map((r) => {
      const notes = Object.entries(r.summary.extra ?? {})
        .map(([key, value]) => `${key} ${cell(value, 1)}`)
        .join(', ');
      const ratio = r.ratio === undefined ? '' : `${cell(r.ratio)} × ${r.baseline}`;
      return `| ${r.title} | ${cell(r.summary.requestsPerSecond, 0)} | ${cell(r.summary.p50Ms)} | ${cell(r.summary.p99Ms)} | ${r.summary.errors} | ${ratio} | ${notes} |`;
    }),
  ];
  lines.push(...cpuTable(results), ...memoryTable(memory));
  if (targets.length > 0) {
    lines.push(
      '',
      '| target | goal | measured | met |',
      '|---|---|---:|---|',
      ...targets.map((t) => `| ${t.name} | ${t.goal} | ${cell(t.measured)} | ${t.met ? 'yes' : 'NO'} |`),
    );
  }
  if (checks.length > 0) {
    lines.push('', '| check | result |', '|---|---|', ...checks.map((c) => `| ${c.name} | ${c.ok ? 'ok' : 'FAILED'}: ${c.detail} |`));
  }
  return lines.join('\n');
}

/** Groups whose CPU per request is below this in every scenario are left out of the table. */
const CPU_SHOWN_MS = 0.05;

/** Where the CPU went: milliseconds per request (per delivery for webhooks) of each process group, and their sum. */
function cpuTable(results: ScenarioResult[]): string[] {
  const groups = [...new Set(results.flatMap((r) => Object.keys(r.summary.cpuMs ?? {})))]
    .filter((group) => results.some((r) => (r.summary.cpuMs?.[group] ?? 0) >= CPU_SHOWN_MS))
    .sort();
  if (groups.length === 0) return [];
  return [
    '',
    `| CPU ms per request | ${groups.join(' | ')} | total |`,
    `|---|${groups.map(() => '---:|').join('')}---:|`,
    ...results.map((r) => {
      const cpu = r.summary.cpuMs ?? {};
      const total = Object.values(cpu).reduce((sum, ms) => sum + ms, 0);
      return `| ${r.title} | ${groups.map((g) => cell(cpu[g])).join(' | ')} | ${cell(total)} |`;
    }),
  ];
}

/** Each app's resident memory after each round, in MiB. */
function memoryTable(memory: Record<string, number>[]): string[] {
  const apps = [...new Set(memory.flatMap((round) => Object.keys(round)))].sort();
  if (apps.length === 0) return [];
  return [
    '',
    `| resident MiB after | ${apps.join(' | ')} |`,
    `|---|${apps.map(() => '---:|').join('')}`,
    ...memory.map((round, i) => `| round ${i + 1} | ${apps.map((app) => cell(round[app], 0)).join(' | ')} |`),
  ];
}
