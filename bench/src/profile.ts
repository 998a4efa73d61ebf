import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  /** Monotonic clock, µs (CLOCK_MONOTONIC, as process.hrtime). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const TOP = 40;

/** Now on the profiles' clock. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Where a script belongs: an app or lib of ours, a package, Node itself, or V8's own buckets. */
function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const ours = /dist\/(apps|libs|bench|tools)\/([^/]+)\//.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  return url;
}

/** Which process a profile came from: the app (or bench part) whose code it ran most. */
function processOf(samplesByOwner: Map<string, number>): string {
  const ours = [...samplesByOwner].filter(([owner]) => /^(apps|bench|tools)\//.test(owner)).sort((a, b) => b[1] - a[1]);
  return ours[0]?.[0] ?? 'unknown';
}

/**
 * Summarizes the V8 CPU profiles in `dir` into `dir`/summary.md: per process, the share of CPU
 * time by owner (app, lib, package, Node, GC) and the functions with the most self time, from
 * the samples taken from `sinceUs` on (monotonic µs: leaves out start-up and seeding).
 */
export function summarizeProfiles(dir: string, sinceUs: number): string {
  const sections: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfUs = new Map<number, number>();
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (at >= sinceUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    });
    const byOwner = new Map<string, number>();
    const byFunction = new Map<string, number>();
    let busy = 0;
    for (const [id, us] of selfUs) {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      if (functionName === '(idle)') continue;
      busy += us;
      const owner = ownerOf(url, functionName);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
      const name = `${functionName || '(anonymous)'} ${owner}${url ? `:${lineNumber + 1}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    }
    const share = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
    const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP);
    sections.push(
      `## ${processOf(byOwner)} (${file}), ${(busy / 1e6).toFixed(1)} s busy`,
      '',
      '| owner | self |',
      '|---|---:|',
      ...top(byOwner).map(([owner, us]) => `| ${owner} | ${share(us)} |`),
      '',
      '| function | self |',
      '|---|---:|',
      ...top(byFunction).map(([name, us]) => `| ${name.replaceAll('|', '\\|')} | ${share(us)} |`),
      '',
    );
  }
  const summary = sections.join('\n');
  writeFileSync(join(dir, 'summary.md'), `${summary}\n`);
  return summary;
}
