import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** CPU seconds used so far by each process measured, with the group it counts in. */
export type CpuSnapshot = Map<number, { group: string; seconds: number }>;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  seconds: number;
}

/** Clock ticks per second of /proc's CPU times. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function procStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(fields[1]),
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      seconds: (Number(fields[11]) + Number(fields[12])) / TICKS,
    };
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Where the CPU of a run goes, read from /proc (Linux only; elsewhere every snapshot is empty):
 * each app of the stack (or the one process of `npm start`) and each baseline (processes started by this bench), the Postgres
 * backends serving the bench's database, the NATS and Redis servers (shared by the machine), and
 * the bench itself (the load generator and the webhook receiver).
 */
export class CpuMeter {
  private readonly client?: pg.Client;

  /** `databaseUrl`: the database whose Postgres backends count; none for a stack without a Postgres server (PGlite). */
  constructor(databaseUrl?: string) {
    this.database = databaseUrl && new URL(databaseUrl).pathname.slice(1);
    this.client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  }

  private readonly database?: string;

  async start(): Promise<void> {
    await this.client?.connect();
  }

  async stop(): Promise<void> {
    await this.client?.end();
  }

  async snapshot(): Promise<CpuSnapshot> {
    const snapshot: CpuSnapshot = new Map();
    let pids: number[];
    try {
      pids = readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .map(Number);
    } catch {
      return snapshot;
    }
    const rows = this.client
      ? (
          await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
            this.database,
          ])
        ).rows
      : [];
    const backends = new Set(rows.map((row) => row.pid));
    const stats = new Map(pids.flatMap((pid) => procStat(pid) ?? []).map((stat) => [stat.pid, stat]));
    const ours = (stat: ProcStat): boolean => {
      for (let pid = stat.ppid; pid > 1; pid = stats.get(pid)?.ppid ?? 0) if (pid === process.pid) return true;
      return false;
    };
    const add = ({ pid, seconds }: ProcStat, group: string) => snapshot.set(pid, { group, seconds });
    for (const stat of stats.values()) {
      if (stat.pid === process.pid) add(stat, 'bench');
      else if (backends.has(stat.pid) && stat.comm === 'postgres') add(stat, 'postgres');
      else if (stat.comm === 'nats-server' || stat.comm === 'redis-server') add(stat, stat.comm);
      else if (ours(stat)) {
        const command = commandLine(stat.pid);
        const app =
          /dist\/apps\/([^/]+)\//.exec(command)?.[1] ??
          (/dist\/tools\/launcher\/src\/all-in-one\.js/.test(command) ? 'all-in-one' : undefined);
        const baseline = /baseline-server\.js (\w+)/.exec(command)?.[1];
        if (app) add(stat, app);
        else if (baseline) add(stat, `baseline ${baseline}`);
      }
    }
    return snapshot;
  }
}

/**
 * CPU milliseconds per operation, by group, between two snapshots: what each process still
 * running used in between (all of it for one started in between); groups that used none are
 * left out.
 */
export function cpuPerOperation(before: CpuSnapshot, after: CpuSnapshot, operations: number): Record<string, number> {
  const used = new Map<string, number>();
  for (const [pid, { group, seconds }] of after) used.set(group, (used.get(group) ?? 0) + seconds - (before.get(pid)?.seconds ?? 0));
  if (operations === 0) return {};
  return Object.fromEntries(
    [...used].filter(([, seconds]) => seconds > 0).map(([group, seconds]) => [group, (seconds * 1000) / operations]),
  );
}

/** A process's resident set size in MiB (Linux /proc; 0 elsewhere or once it is gone). */
export function rssMiB(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? 0 : Number(kib) / 1024;
  } catch {
    return 0;
  }
}

/** Groups of a snapshot that are not apps of ours: shared servers, the bench itself, the bare baselines. */
const NOT_APPS = /^(?:postgres|nats-server|redis-server|bench|baseline .*)$/;

/** The resident memory of each app of a snapshot, in MiB (the sum of its processes). */
export function appMemory(snapshot: CpuSnapshot): Record<string, number> {
  const memory: Record<string, number> = {};
  for (const [pid, { group }] of snapshot) if (!NOT_APPS.test(group)) memory[group] = (memory[group] ?? 0) + rssMiB(pid);
  return memory;
}
