import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELAXED_LIMITS_ENV, startReceiver, startServicesStack } from '#libs/testing';
import { type AllInOneRun, measureAllInOne, type StartTimes } from './all-in-one.js';
import { startBaselines } from './baselines.js';
import { appMemory, CpuMeter, cpuPerOperation } from './cpu.js';
import { measureExport, seedExport } from './exports.js';
import { clientAddress, type Measurement, runHttp } from './load.js';
import { Platform } from './platform.js';
import { monotonicMicros, summarizeProfiles } from './profile.js';
import { type Check, markdown, type ScenarioResult, summarize, type Target } from './report.js';
import { fullLine, nearlyFullSignup, participantsIn, registration, REGISTRATION_SLOTS, seed, takenPlaces } from './seed.js';
import { settle } from './settle.js';
import { median } from './stats.js';
import { seedWebhooks, webhookBurst, webhookPaced } from './webhooks.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '3' },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: 'bench/results' },
    profile: { type: 'string' },
    'export-participants': { type: 'string', default: '50000' },
  },
});

/** `--smoke`: every scenario once, for one second (or a few events), to keep the harness working. */
const settings = args.smoke
  ? {
      duration: 1,
      rounds: 1,
      connections: 50,
      warmup: 0,
      webhookEvents: 200,
      fanoutEvents: 20,
      pacedRate: 100,
      pacedSeconds: 1,
      exportParticipants: 500,
    }
  : {
      duration: Number(args.duration),
      rounds: Number(args.rounds),
      connections: Number(args.connections),
      warmup: Number(args.warmup),
      webhookEvents: 10_000,
      fanoutEvents: 1_000,
      pacedRate: 500,
      pacedSeconds: 10,
      exportParticipants: Number(args['export-participants']),
    };
/** Preloaded into the apps by --profile. */
const CPU_PROFILER = join(dirname(fileURLToPath(import.meta.url)), 'cpu-profiler.js');
const CONTENDERS = 500;
const LAST_PLACES = 10;
const TAKEN_BEFORE = 40;
const WEBHOOK_ENDPOINTS = 10;
/** The fan-out scenario: one organization whose every event goes to this many endpoints. */
const FANOUT_ENDPOINTS = 10;
/** The paced webhook scenario runs at this share of the registration rate measured in the same run. */
const PACED_SHARE = 0.6;
/** Cancellations of holders of a full slot with as many in its line: each promotes the next. */
const PROMOTION_CANCELLATIONS = 200;

interface Scenario {
  id: string;
  title: string;
  baseline?: string;
  /** Runs once before the first round, unmeasured, when the run has a warm-up. */
  warm?: boolean;
  measure(): Promise<Measurement>;
}

async function main(): Promise<void> {
  const profileDir = args.profile === undefined ? undefined : resolve(args.profile);
  let profileFrom = Number.MAX_SAFE_INTEGER;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const stack = await startServicesStack({
    label: 'bench',
    env: {
      ...RELAXED_LIMITS_ENV,
      TRUST_PROXY: 'true',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      ...(profileDir && { NODE_OPTIONS: `--import=${CPU_PROFILER}`, BENCH_PROFILE_DIR: profileDir }),
    },
  });
  const receiver = await startReceiver();
  const cpu = new CpuMeter(stack.info.databaseUrl);
  const only = args.only?.split(',');
  const checks: Check[] = [];
  let services: { results: ScenarioResult[]; memory: Record<string, number>[] } | undefined;
  let baselines: Awaited<ReturnType<typeof startBaselines>> | undefined;
  try {
    await cpu.start();
    baselines = await startBaselines(stack.info.databaseUrl, stack.info.natsUrl);
    const platform = new Platform(stack.info);
    const fixtures = await seed(platform);
    const webhooks = await seedWebhooks(platform, receiver, WEBHOOK_ENDPOINTS);
    const fanout = await seedWebhooks(platform, receiver, 1, FANOUT_ENDPOINTS, 'Bench fan-out');
    const api = stack.info.baseUrl;
    const apiPath = new URL(api).pathname;
    const { key } = fixtures.tenant;
    const http =
      (url: string, connections: number, expectStatus: number[], extra: Partial<Parameters<typeof runHttp>[0]> = {}) =>
      () =>
        runHttp({ url, connections, duration: settings.duration, expectStatus, ...extra });
    let slot = 0;
    let exportSignupId = '';
    const scenarios: Scenario[] = [
      { id: 'hello', title: 'Fastify hello (bare)', warm: true, measure: http(baselines.helloUrl, settings.connections, [200]) },
      {
        id: 'read-baseline',
        title: 'Fastify → NATS → Postgres read by key (bare)',
        warm: true,
        measure: http(baselines.readUrl, settings.connections, [200]),
      },
      {
        id: 'write-baseline',
        title: 'Fastify → NATS → Postgres UPDATE + INSERT (bare)',
        warm: true,
        measure: http(baselines.writeUrl, settings.connections, [201], { method: 'POST' }),
      },
      { id: 'read-baseline-1', title: 'read baseline, 1 connection', measure: http(baselines.readUrl, 1, [200]) },
      {
        id: 'get-signup',
        title: 'GET /signups/{id} (API key)',
        baseline: 'read-baseline',
        warm: true,
        measure: http(`${api}/signups/${fixtures.readSignupId}`, settings.connections, [200], {
          headers: { authorization: `Bearer ${key}` },
        }),
      },
      {
        id: 'get-signup-1',
        title: 'GET /signups/{id}, 1 connection',
        baseline: 'read-baseline-1',
        measure: http(`${api}/signups/${fixtures.readSignupId}`, 1, [200], { headers: { authorization: `Bearer ${key}` } }),
      },
      {
        id: 'list-signups',
        title: 'GET /signups?limit=20 (API key)',
        baseline: 'read-baseline',
        warm: true,
        measure: http(`${api}/signups?limit=20`, settings.connections, [200], { headers: { authorization: `Bearer ${key}` } }),
      },
      {
        id: 'register',
        title: 'POST participants (anonymous, 200 slots)',
        baseline: 'write-baseline',
        warm: true,
        measure: http(stack.info.gatewayUrl, settings.connections, [201], {
          method: 'POST',
          request: () => ({
            path: `${apiPath}/signups/${fixtures.registerSignupId}/participants`,
            body: registration([{ type: 'slot', id: fixtures.registerSlotIds[slot++ % REGISTRATION_SLOTS]! }]),
          }),
          connectionHeaders: (n) => ({ 'x-forwarded-for': clientAddress(n) }),
        }),
      },
      {
        id: 'contention',
        title: `${CONTENDERS} clients for the last ${LAST_PLACES} places`,
        measure: async () => {
          const { signupId, slotId } = await nearlyFullSignup(platform, key, LAST_PLACES, TAKEN_BEFORE);
          let confirmed = 0;
          const measured = await runHttp({
            url: `${api}/signups/${signupId}/participants`,
            connections: CONTENDERS,
            amount: CONTENDERS,
            method: 'POST',
            request: () => ({ body: registration([{ type: 'slot', id: slotId }]) }),
            connectionHeaders: (n) => ({ 'x-forwarded-for': clientAddress(n) }),
            expectStatus: [200, 201],
            onBody: (_status, body) => (confirmed += (JSON.parse(body) as { confirmed: unknown[] }).confirmed.length),
          });
          const taken = await takenPlaces(platform, key, signupId);
          const ok = confirmed === LAST_PLACES && taken === LAST_PLACES + TAKEN_BEFORE;
          checks.push({
            name: `contention, round ${checks.filter((c) => c.name.startsWith('contention')).length + 1}`,
            ok,
            detail: `${confirmed} confirmed of ${LAST_PLACES} places; slot taken ${taken} of ${LAST_PLACES + TAKEN_BEFORE}`,
          });
          return { ...measured, extra: { confirmed } };
        },
      },
      {
        id: 'promotions',
        title: `${PROMOTION_CANCELLATIONS} concurrent cancellations, each promoting the next in line`,
        measure: async () => {
          // autocannon builds each connection's next request ahead: one holder per connection more than are cancelled, never sent.
          const places = PROMOTION_CANCELLATIONS + settings.connections;
          const { signupId, holderTokens } = await fullLine(platform, key, places);
          let next = 0;
          const measured = await runHttp({
            url: stack.info.gatewayUrl,
            connections: settings.connections,
            amount: PROMOTION_CANCELLATIONS,
            method: 'DELETE',
            request: () => ({ path: `${apiPath}/registrations/${holderTokens[next++]}` }),
            connectionHeaders: (n) => ({ 'x-forwarded-for': clientAddress(n) }),
            expectStatus: [200],
          });
          const [confirmed, waiting, taken] = [
            await participantsIn(platform, key, signupId, 'confirmed'),
            await participantsIn(platform, key, signupId, 'waitlisted'),
            await takenPlaces(platform, key, signupId),
          ];
          const promoted = places - waiting;
          checks.push({
            name: `promotions, round ${checks.filter((c) => c.name.startsWith('promotions')).length + 1}`,
            ok: promoted === PROMOTION_CANCELLATIONS && confirmed === places && taken === places,
            detail: `${promoted} promoted for ${PROMOTION_CANCELLATIONS} cancellations; ${confirmed} confirmed, slot taken ${taken} of ${places}`,
          });
          return measured;
        },
      },
      {
        id: 'webhooks-burst',
        title: `webhooks: ${settings.webhookEvents} events to ${WEBHOOK_ENDPOINTS} endpoints (deliveries/s; commit-to-receipt ms)`,
        measure: () => webhookBurst(platform, webhooks, settings.webhookEvents),
      },
      {
        id: 'webhooks-fanout',
        title: `webhooks: ${settings.fanoutEvents} events, each to ${FANOUT_ENDPOINTS} endpoints (deliveries/s; commit-to-receipt ms)`,
        measure: () => webhookBurst(platform, fanout, settings.fanoutEvents),
      },
      {
        id: 'webhooks-paced',
        title: `webhooks at ${PACED_SHARE * 100}% of the registration rate (deliveries/s; commit-to-receipt ms)`,
        measure: () => webhookPaced(platform, webhooks, pacedRate(), settings.pacedSeconds),
      },
      {
        id: 'export',
        title: `export of ${settings.exportParticipants} participants as CSV (rows/s; p50: the whole export, ms)`,
        measure: async () => {
          const measured = await measureExport(platform, cpu, key, exportSignupId);
          checks.push({
            name: `export, round ${checks.filter((c) => c.name.startsWith('export')).length + 1}`,
            ok: measured.requests === settings.exportParticipants && measured.errors === 0,
            detail: `${measured.requests} rows of ${settings.exportParticipants} participants`,
          });
          return measured;
        },
      },
    ];
    const selected = only ? scenarios.filter((s) => only.includes(s.id)) : scenarios;
    if (selected.some((s) => s.id === 'export')) {
      const seeded = await seedExport(platform, stack.info.databaseUrl, key, settings.exportParticipants);
      exportSignupId = seeded.signupId;
      process.stderr.write(`seeded ${settings.exportParticipants} participants to export in ${seeded.seconds.toFixed(1)} s\n`);
    }

    if (settings.warmup > 0) {
      for (const scenario of selected.filter((s) => s.warm)) {
        process.stderr.write(`warming up ${scenario.id}\n`);
        await runHttpWarmup(scenario);
      }
    }
    profileFrom = monotonicMicros();
    const measured = new Map<string, Measurement[]>(selected.map((s) => [s.id, []]));
    const memory: Record<string, number>[] = [];
    for (let r = 1; r <= settings.rounds; r += 1) {
      for (const scenario of selected) {
        process.stderr.write(`round ${r}/${settings.rounds}: ${scenario.id}\n`);
        const before = await cpu.snapshot();
        const measurement = await scenario.measure();
        const waited = await settle(Object.values(stack.info.internalUrls));
        if (waited >= 1) process.stderr.write(`  its events took the consumers ${waited.toFixed(1)} s more\n`);
        measured.get(scenario.id)!.push({ ...measurement, cpuMs: cpuPerOperation(before, await cpu.snapshot(), measurement.requests) });
      }
      memory.push(appMemory(await cpu.snapshot()));
    }

    /**
     * The paced webhook rate: a share of the registrations per second measured so far in this run
     * (the register scenario's median, else the burst's), so the host can sustain it; the
     * configured rate when neither ran yet.
     */
    function pacedRate(): number {
      const rates = (measured.get('register') ?? []).map((m) => m.requestsPerSecond);
      const burst = (measured.get('webhooks-burst') ?? []).map((m) => m.extra?.registrationsPerSecond ?? 0);
      const base = rates.length > 0 ? median(rates) : burst.length > 0 ? median(burst) : settings.pacedRate / PACED_SHARE;
      return Math.max(1, Math.round(base * PACED_SHARE));
    }

    const results: ScenarioResult[] = selected.map((s) => ({
      id: s.id,
      title: s.title,
      baseline: s.baseline,
      rounds: measured.get(s.id)!,
      summary: summarize(measured.get(s.id)!),
    }));
    const byId = new Map(results.map((r) => [r.id, r]));
    for (const result of results) {
      const baseline = result.baseline ? byId.get(result.baseline) : undefined;
      if (baseline) result.ratio = result.summary.requestsPerSecond / baseline.summary.requestsPerSecond;
    }
    services = { results, memory };

    async function runHttpWarmup(scenario: Scenario): Promise<void> {
      const seconds = settings.duration;
      settings.duration = settings.warmup;
      try {
        await scenario.measure();
      } finally {
        settings.duration = seconds;
      }
    }
  } finally {
    await cpu.stop();
    await baselines?.stop();
    await receiver.close();
    await stack.stop();
  }
  if (profileDir) {
    summarizeProfiles(profileDir, profileFrom);
    process.stdout.write(`profiles: ${profileDir}/summary.md\n`);
  }
  // npm start, measured once the services stack is gone: it has the machine to itself, as a newcomer's would.
  let allInOne: AllInOneRun | undefined;
  if (!only || only.includes('all-in-one')) {
    const meter = new CpuMeter();
    allInOne = await measureAllInOne(meter, {
      duration: settings.duration,
      rounds: settings.rounds,
      connections: settings.connections,
      warmup: settings.warmup,
      build: !args.smoke,
    });
  }
  report(services!, allInOne, checks);
}

/** Prints the tables and writes every figure, with the targets and the host's calibration, to the results file. */
function report(
  services: { results: ScenarioResult[]; memory: Record<string, number>[] },
  allInOne: AllInOneRun | undefined,
  checks: Check[],
) {
  const byId = new Map(services.results.map((r) => [r.id, r]));
  const aioResults: ScenarioResult[] = allInOne
    ? [...allInOne.measured].map(([id, rounds]) => ({ id, title: allInOne.titles.get(id)!, rounds, summary: summarize(rounds) }))
    : [];
  const targets = [...evaluate(byId), ...leakTargets(services.memory), ...(allInOne ? allInOneTargets(allInOne, aioResults) : [])];
  const sections = [markdown(services.results, targets, checks, services.memory)];
  if (allInOne) sections.push('## npm start (all-in-one)', startTable(allInOne.start), markdown(aioResults, [], [], allInOne.memory));
  process.stdout.write(`\n${sections.join('\n\n')}\n`);
  const outDir = resolve(args.out);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-${new Date().toISOString().replaceAll(':', '-')}.json`);
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
  };
  // The bare paths of this host, to compare runs on different hosts by.
  const calibration = {
    helloRequestsPerSecond: byId.get('hello')?.summary.requestsPerSecond,
    readBaselineRequestsPerSecond: byId.get('read-baseline')?.summary.requestsPerSecond,
    writeBaselineRequestsPerSecond: byId.get('write-baseline')?.summary.requestsPerSecond,
    readBaselineP50MsAtOneConnection: byId.get('read-baseline-1')?.summary.p50Ms,
  };
  const results = { at: new Date().toISOString(), machine, calibration, settings, results: services.results, targets, checks };
  const allInOneResults = allInOne && { start: allInOne.start, results: aioResults, memory: allInOne.memory };
  writeFileSync(file, `${JSON.stringify({ ...results, memory: services.memory, allInOne: allInOneResults }, null, 2)}\n`);
  process.stdout.write(`\nresults: ${file}\n`);
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

/** The targets, where both sides were measured in this run. */
function evaluate(results: Map<string, ScenarioResult>): Target[] {
  const targets: Target[] = [];
  const add = (name: string, goal: string, measured: number | undefined, met: (value: number) => boolean) => {
    if (measured !== undefined && !Number.isNaN(measured)) targets.push({ name, goal, measured, met: met(measured) });
  };
  add('GET /signups/{id} req/s ÷ read baseline', '≥ 0.7', results.get('get-signup')?.ratio, (v) => v >= 0.7);
  add('GET /signups?limit=20 req/s ÷ read baseline', '≥ 0.5', results.get('list-signups')?.ratio, (v) => v >= 0.5);
  add('registration req/s ÷ write baseline', '≥ 0.8', results.get('register')?.ratio, (v) => v >= 0.8);
  const single = results.get('get-signup-1');
  const singleBaseline = results.get('read-baseline-1');
  if (single && singleBaseline) {
    add('gateway-added p50 at 1 connection (ms)', '≤ 0.5', single.summary.p50Ms - singleBaseline.summary.p50Ms, (v) => v <= 0.5);
  }
  const burst = results.get('webhooks-burst')?.summary;
  if (burst?.extra?.registrationsPerSecond) {
    add(
      'webhook deliveries/s ÷ registrations/s in the burst',
      '≥ 0.95',
      burst.requestsPerSecond / burst.extra.registrationsPerSecond,
      (v) => v >= 0.95,
    );
  }
  add(
    `webhook deliveries/s, every event to ${FANOUT_ENDPOINTS} endpoints`,
    '≥ 2000',
    results.get('webhooks-fanout')?.summary.requestsPerSecond,
    (v) => v >= 2000,
  );
  add(
    `webhook p99 commit-to-receipt at ${PACED_SHARE * 100}% of the registration rate (ms)`,
    '< 250',
    results.get('webhooks-paced')?.summary.p99Ms,
    (v) => v < 250,
  );
  const errors = [...results.values()].reduce((sum, r) => sum + r.summary.errors, 0);
  add('errors, all scenarios', '0', errors, (v) => v === 0);
  return targets;
}

/** `npm start`'s goals: its start times and its memory. */
function allInOneTargets(run: AllInOneRun, results: ScenarioResult[]): Target[] {
  const targets: Target[] = [];
  if (run.start.coldSeconds !== undefined) {
    const cold = run.start.coldSeconds;
    targets.push({ name: 'npm start, cold: build and first start to /healthz 200 (s)', goal: '≤ 15', measured: cold, met: cold <= 15 });
  }
  const warm = run.start.warmSeconds;
  targets.push({ name: 'npm start, warm: to /healthz 200 (s)', goal: '≤ 5', measured: warm, met: warm <= 5 });
  const errors = results.reduce((sum, r) => sum + r.summary.errors, 0);
  targets.push({ name: 'errors, npm start scenarios', goal: '0', measured: errors, met: errors === 0 });
  return [...targets, ...leakTargets(run.memory)];
}

/** How long `npm start` took to serve. */
function startTable(start: StartTimes): string {
  const row = (what: string, seconds: number | undefined) => (seconds === undefined ? [] : [`| ${what} | ${seconds.toFixed(2)} |`]);
  return [
    '| npm start | seconds |',
    '|---|---:|',
    ...row('build, no cache', start.buildSeconds),
    ...row('first start on an empty data folder, to /healthz 200', start.firstStartSeconds),
    ...row('cold: the build and the first start', start.coldSeconds),
    ...row('warm start, to /healthz 200', start.warmSeconds),
    ...row('warm start, to the banner (every app up)', start.warmBannerSeconds),
  ].join('\n');
}

/** Growth of each app's resident memory from the second round to the third (a leak check); none with fewer rounds. */
function leakTargets(memory: Record<string, number>[]): Target[] {
  const [, second, third] = memory;
  if (!second || !third) return [];
  return Object.keys(third)
    .sort()
    .filter((app) => (second[app] ?? 0) > 0)
    .map((app) => {
      const growth = ((third[app]! - second[app]!) / second[app]!) * 100;
      return { name: `${app} resident memory growth, round 2 to 3 (%)`, goal: '≤ 10', measured: growth, met: growth <= 10 };
    });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
