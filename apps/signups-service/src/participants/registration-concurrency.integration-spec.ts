import type { CloudEvent, RegistrationResultView, SelectionInput } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, type TestStack } from '#libs/testing';
import { signupsServiceApp } from '../index.js';
import { caller, daysFromNow, person, SIGNUP_TIME_ZONE, SIGNUPS_ENV } from '../testing/fixtures.js';

/**
 * Two replicas of the service share the signups.* subjects through the NATS queue group and
 * one Postgres database, as in production. Hundreds of registrations race for the last places.
 */
let stack: TestStack;
const replicas: RunningApp[] = [];
const events: CloudEvent[] = [];

beforeAll(async () => {
  stack = await createTestStack('signups_concurrency', { transport: 'nats' });
  replicas.push(await stack.boot(signupsServiceApp, SIGNUPS_ENV));
  replicas.push(await stack.boot(signupsServiceApp, SIGNUPS_ENV));
  await stack.bus.broadcast(['participant.registered', 'slot.filled', 'item.filled'], async (event) => {
    events.push(event);
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const REGISTRATIONS = 320;

/** The register requests this replica answered, from its own /metrics. */
async function registrationsHandledBy(replica: RunningApp): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('bus_requests_handled_total{') && line.includes('subject="signups.participants.register"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('registrations racing for the last places on two replicas', () => {
  it('never takes more than a slot or item holds, and keeps every count equal to the stored rows', async () => {
    const owner = caller();
    let signup = await stack.bus.request('signups.create', {
      principal: owner,
      input: { title: 'Marathon water station', eventDate: daysFromNow(10), timeZone: SIGNUP_TIME_ZONE },
    });
    const {
      data: [scarce, roomy],
    } = await stack.bus.request('signups.slots.create', {
      principal: owner,
      signupId: signup.id,
      input: [
        { title: 'Last places', capacity: 5 },
        { title: 'Roomy', capacity: 1000 },
      ],
    });
    const {
      data: [cake],
    } = await stack.bus.request('signups.items.create', {
      principal: owner,
      signupId: signup.id,
      input: [{ name: 'Cake', quantityNeeded: 6 }],
    });
    signup = await stack.bus.request('signups.publish', { principal: owner, id: signup.id });

    const patterns: SelectionInput[][] = [
      [{ type: 'slot', id: scarce!.id }],
      [
        { type: 'slot', id: scarce!.id, quantity: 2 },
        { type: 'slot', id: roomy!.id },
      ],
      [{ type: 'item', id: cake!.id, quantity: 2 }],
      [
        { type: 'item', id: cake!.id },
        { type: 'slot', id: scarce!.id },
      ],
      [
        { type: 'slot', id: roomy!.id },
        { type: 'item', id: cake!.id, quantity: 2 },
      ],
    ];
    const requests = Array.from({ length: REGISTRATIONS }, (_, i) => ({ ...person(), selections: patterns[i % patterns.length]! }));
    const results: RegistrationResultView[] = await Promise.all(
      requests.map((input) => stack.bus.request('signups.participants.register', { signupId: signup.id, input }, { timeoutMs: 60_000 })),
    );

    // What the answers confirmed, per slot or item: selections and quantity.
    const confirmed = new Map<string, { rows: number; quantity: number }>();
    results.forEach((result, i) => {
      for (const c of result.confirmed) {
        const asked = requests[i]!.selections.find((s) => s.id === c.id)!;
        const entry = confirmed.get(c.id) ?? { rows: 0, quantity: 0 };
        confirmed.set(c.id, { rows: entry.rows + 1, quantity: entry.quantity + (asked.quantity ?? 1) });
      }
      expect(result.success).toBe(result.failed.length === 0);
      expect(result.failed.every((f) => f.reason === 'full')).toBe(true);
    });

    const read = await stack.bus.request('signups.get', { principal: owner, id: signup.id });
    const [scarceNow, roomyNow] = read.slots!;
    const [cakeNow] = read.items!;
    expect(scarceNow).toMatchObject({ capacity: 5, taken: 5, remaining: 0 });
    expect(cakeNow).toMatchObject({ quantityNeeded: 6, quantityClaimed: 6, remaining: 0 });
    expect(roomyNow!.taken).toBeLessThanOrEqual(roomyNow!.capacity);
    expect(confirmed.get(scarce!.id)!.quantity).toBe(scarceNow!.taken);
    expect(confirmed.get(cake!.id)!.quantity).toBe(cakeNow!.quantityClaimed);
    expect(confirmed.get(roomy!.id)!.quantity).toBe(roomyNow!.taken);

    const db = replicas[0]!.context.dataSource!;
    const stored = (await db.query(
      `SELECT s.target_id AS id, count(*)::int AS rows, sum(s.quantity)::int AS quantity
       FROM signups.selections s JOIN signups.participants p ON p.id = s.participant_id WHERE p.signup_id = $1 GROUP BY s.target_id`,
      [signup.id],
    )) as { id: string; rows: number; quantity: number }[];
    expect(new Map(stored.map((r) => [r.id, { rows: r.rows, quantity: r.quantity }]))).toEqual(confirmed);

    const [{ participants }] = (await db.query('SELECT count(*)::int AS participants FROM signups.participants WHERE signup_id = $1', [
      signup.id,
    ])) as {
      participants: number;
    }[];
    const tokens = results.filter((r) => r.confirmationToken !== undefined);
    expect(read.participantCount).toBe(participants);
    expect(participants).toBe(tokens.length);
    expect(new Set(tokens.map((r) => r.confirmationToken)).size).toBe(tokens.length);
    // A registration without a token stored nothing: every selection it asked for failed.
    results.forEach((result, i) => {
      if (result.confirmationToken === undefined) {
        expect(result.confirmed).toEqual([]);
        expect(result.failed).toHaveLength(requests[i]!.selections.length);
      }
    });

    const handled = await Promise.all(replicas.map(registrationsHandledBy));
    expect(handled.every((n) => n > 0)).toBe(true);
    expect(handled.reduce((a, b) => a + b, 0)).toBe(REGISTRATIONS);

    await eventually(() => expect(events.filter((e) => e.type === 'participant.registered')).toHaveLength(participants), 20_000);
    expect(events.filter((e) => e.type === 'slot.filled').map((e) => e.subject)).toEqual([scarce!.id]);
    expect(events.filter((e) => e.type === 'item.filled').map((e) => e.subject)).toEqual([cake!.id]);
  }, 120_000);
});
