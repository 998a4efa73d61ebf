import pg from 'pg';
import { type CpuMeter, rssMiB } from './cpu.js';
import { type Measurement, measurement } from './load.js';
import type { Platform } from './platform.js';
import { publishedSignup } from './seed.js';

/** The apps whose memory an export is measured in: the one that streams it and the one that reads it. */
const MEASURED_APPS = ['api-gateway', 'signups-service'] as const;
/** How often the resident set sizes are read during an export. */
const SAMPLE_MS = 25;
const EXPORT_SLOTS = 10;

/**
 * A published signup of `participants` participants, each holding a place in one of its 10 slots
 * (names with a comma and an accent, so the CSV quotes them); answers its id and how long the
 * seeding took. The participants are written in SQL, as the signups-service stores them:
 * registrations to one signup take its row lock one after the other (about 160 a second on this
 * machine), so 50,000 through the API would take minutes. Then analyzed, as autovacuum would.
 */
export async function seedExport(
  platform: Platform,
  databaseUrl: string,
  key: string,
  participants: number,
): Promise<{ signupId: string; seconds: number }> {
  const started = performance.now();
  const signup = await publishedSignup(platform, key, {
    title: 'Export',
    slots: EXPORT_SLOTS,
    capacity: Math.ceil(participants / EXPORT_SLOTS),
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `WITH p AS (
         INSERT INTO "signups"."participants" (id, signup_id, name, email, token_hash, created_at)
         SELECT gen_random_uuid(), $1::uuid, 'Zoë, export person ' || n, 'export' || n || '@example.com', md5($1::text || ':' || n),
                date_trunc('milliseconds', now()) - make_interval(secs => ($2 - n) / 1000.0)
         FROM generate_series(1, $2::integer) AS n
         RETURNING id, created_at
       )
       INSERT INTO "signups"."selections" (participant_id, kind, target_id, quantity)
       SELECT id, 'slot', ($3::uuid[])[1 + (row_number() OVER (ORDER BY created_at, id))::integer % $4], 1 FROM p`,
      [signup.id, participants, signup.slotIds, EXPORT_SLOTS],
    );
    await db.query(
      `UPDATE "signups"."slots" t SET taken = (SELECT count(*) FROM "signups"."selections" s WHERE s.kind = 'slot' AND s.target_id = t.id)
       WHERE t.signup_id = $1`,
      [signup.id],
    );
    await db.query(`UPDATE "signups"."signups" SET participant_count = $2 WHERE id = $1`, [signup.id, participants]);
    await db.query('COMMIT');
    // As autovacuum does after registrations come in: without statistics the planner takes the
    // signup for a small one and sorts all its participants for every page.
    await db.query('ANALYZE "signups"."participants", "signups"."selections"');
  } finally {
    await db.end();
  }
  return { signupId: signup.id, seconds: (performance.now() - started) / 1000 };
}

/**
 * Downloads a signup's export as CSV, reading the body as it streams (nothing kept but counts),
 * while reading the resident set size of the gateway and the signups-service every SAMPLE_MS:
 * their growth over the size before the export, and their peak, in MiB. One operation per
 * participant exported, so the req/s column reads rows per second and the CPU table CPU per row.
 */
export async function measureExport(platform: Platform, cpu: CpuMeter, key: string, signupId: string): Promise<Measurement> {
  const processes = [...(await cpu.snapshot())].filter(([, { group }]) => (MEASURED_APPS as readonly string[]).includes(group));
  const before = new Map<string, number>(MEASURED_APPS.map((app) => [app, 0]));
  const peak = new Map<string, number>(MEASURED_APPS.map((app) => [app, 0]));
  const sample = (into: Map<string, number>, keep: (old: number, now: number) => number) => {
    const sums = new Map<string, number>();
    for (const [pid, { group }] of processes) sums.set(group, (sums.get(group) ?? 0) + rssMiB(pid));
    for (const [group, now] of sums) into.set(group, keep(into.get(group) ?? 0, now));
  };
  sample(before, (_old, now) => now);
  const sampler = setInterval(() => sample(peak, Math.max), SAMPLE_MS);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  let status = 0;
  try {
    const res = await fetch(`${platform.info.baseUrl}/signups/${signupId}/participants/export.csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    status = res.status;
    for await (const chunk of res.body!) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  sample(peak, Math.max);
  const durationMs = performance.now() - started;
  const rows = lines - 1;
  const growth = (app: string) => Math.max(0, peak.get(app)! - before.get(app)!);
  return {
    ...measurement([durationMs], rows, durationMs, status === 200 ? 0 : 1),
    extra: {
      'export MiB': bytes / 2 ** 20,
      'gateway RSS growth MiB': growth('api-gateway'),
      'gateway peak RSS MiB': peak.get('api-gateway')!,
      'signups-service RSS growth MiB': growth('signups-service'),
      'signups-service peak RSS MiB': peak.get('signups-service')!,
    },
  };
}
