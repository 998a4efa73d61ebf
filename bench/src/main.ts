import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELAXED_LIMITS_ENV, startReceiver, startServicesStack } from '#libs/testing';
import { startBaselines } from './baselines.js';
import { CpuMeter, cpuPerOperation } from './cpu.js';
import { measureExport, seedExport } from './exports.js';
import { clientAddress, type Measurement, runHttp } from './load.js';
import { Platform } from './platform.js';
import { monotonicMicros, summarizeProfiles } from './profile.js';
import { type Check, markdown, type ScenarioResult, summarize, type Target } from './report.js';
import { fullLine, nearlyFullSignup, participantsIn, registration, REGISTRATION_SLOTS, seed, takenPlaces } from './seed.js';
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
  ? { duration: 1, rounds: 1, connections: 50, warmup: 0, webhookEvents: 200, pacedRate: 100, pacedSeconds: 1, exportParticipants: 500 }
  : {
      duration: Number(args.duration),
      rounds: Number(args.rounds),
      connections: Number(args.connections),
      warmup: Number(args.warmup),
      webhookEvents: 10_000,
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
  const cpu = new CpuMeter(new URL(stack.info.databaseUrl).pathname.slice(1), stack.info.databaseUrl);
  let baselines: Awaited<ReturnType<typeof startBaselines>> | undefined;
  try {
    await cpu.start();
    baselines = await startBaselines(stack.info.databaseUrl, stack.info.natsUrl);
    const platform = new Platform(stack.info);
    const fixtures = await seed(platform);
    const webhooks = await seedWebhooks(platform, receiver, WEBHOOK_ENDPOINTS);
    const api = stack.info.baseUrl;
    const apiPath = new URL(api).pathname;
    const { key } = fixtures.tenant;
    const checks: Check[] = [];
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
        id: 'webhooks-paced',
        title: `webhooks at ${settings.pacedRate} events/s (deliveries/s; commit-to-receipt ms)`,
        measure: () => webhookPaced(platform, webhooks, settings.pacedRate, settings.pacedSeconds),
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
    const only = args.only?.split(',');
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
    for (let r = 1; r <= settings.rounds; r += 1) {
      for (const scenario of selected) {
        process.stderr.write(`round ${r}/${settings.rounds}: ${scenario.id}\n`);
        const before = await cpu.snapshot();
        const measurement = await scenario.measure();
        measured.get(scenario.id)!.push({ ...measurement, cpuMs: cpuPerOperation(before, await cpu.snapshot(), measurement.requests) });
      }
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
    const targets = evaluate(byId);
    const report = markdown(results, targets, checks);
    process.stdout.write(`\n${report}\n`);
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
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine, settings, results, targets, checks }, null, 2)}\n`);
    process.stdout.write(`\nresults: ${file}\n`);
    if (checks.some((c) => !c.ok)) process.exitCode = 1;

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
}

/** The targets, where both sides were measured in this run. */
function evaluate(results: Map<string, ScenarioResult>): Target[] {
  const targets: Target[] = [];
  const add = (name: string, goal: string, measured: number | undefined, met: (value: number) => boolean) => {
    if (measured !== undefined && !Number.isNaN(measured)) targets.push({ name, goal, measured, met: met(measured) });
  };
  add('GET /signups/{id} req/s ÷ read baseline', '≥ 0.6', results.get('get-signup')?.ratio, (v) => v >= 0.6);
  add('registration req/s ÷ write baseline', '≥ 0.5', results.get('register')?.ratio, (v) => v >= 0.5);
  const single = results.get('get-signup-1');
  const singleBaseline = results.get('read-baseline-1');
  if (single && singleBaseline) {
    add('gateway-added p50 at 1 connection (ms)', '≤ 1', single.summary.p50Ms - singleBaseline.summary.p50Ms, (v) => v <= 1);
  }
  add('webhook deliveries/s', '≥ 1000', results.get('webhooks-burst')?.summary.requestsPerSecond, (v) => v >= 1000);
  add('webhook p99 commit-to-receipt at 500 events/s (ms)', '< 500', results.get('webhooks-paced')?.summary.p99Ms, (v) => v < 500);
  const errors = [...results.values()].reduce((sum, r) => sum + r.summary.errors, 0);
  add('errors, all scenarios', '0', errors, (v) => v === 0);
  return targets;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
