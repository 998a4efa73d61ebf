import type { DataSource } from 'typeorm';
import type { RegistrationInput, RegistrationResultView } from '#libs/contracts';
import { runWithRequestId } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { type AppHarness, caller, person, startApp } from '../testing/fixtures.js';

/**
 * Registrations that queue on one signup go in one transaction together (RegisterParticipantUseCase
 * with Batches): each keeps its own answer, its own count, its own event and request id, and one
 * that fails costs the others of its batch nothing.
 */
let h: AppHarness;
let db: DataSource;

beforeAll(async () => {
  h = await startApp('signups_registration_batches');
  db = h.app.context.dataSource!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

type Outcome = { result: RegistrationResultView } | { problem: ProblemError };

/** The registrations sent at once, each in a request of its own (request id `req-<i>`). */
function registerAll(signupId: string, inputs: Partial<RegistrationInput>[]): Promise<Outcome[]> {
  return Promise.all(
    inputs.map((input, i) =>
      runWithRequestId(`req-${i}`, () =>
        h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections: [], ...input } }),
      ).then(
        (result): Outcome => ({ result }),
        (err: unknown): Outcome => {
          if (err instanceof ProblemError) return { problem: err };
          throw err;
        },
      ),
    ),
  );
}

async function stored(signupId: string): Promise<{ participants: number; counted: number; transactions: number }> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*)::int FROM signups.participants WHERE signup_id = $1) AS participants,
            (SELECT count(DISTINCT created_at)::int FROM signups.participants WHERE signup_id = $1) AS transactions,
            (SELECT participant_count FROM signups.signups WHERE id = $1) AS counted`,
    [signupId],
  )) as { participants: number; counted: number; transactions: number }[];
  return row!;
}

const succeeded = (outcomes: Outcome[]) => outcomes.flatMap((o) => ('result' in o && o.result.success ? [o.result] : []));

describe('registrations queued on one signup', () => {
  it('commit together, each with its own answer, place, count and event in the request that made it', async () => {
    const { signup, slots } = await h.signup(caller(), { slots: [{ title: 'Roomy', capacity: 1000 }] });
    const outcomes = await registerAll(
      signup.id,
      Array.from({ length: 40 }, () => ({ selections: [{ type: 'slot', id: slots[0]!.id }] })),
    );

    expect(succeeded(outcomes)).toHaveLength(40);
    const after = await stored(signup.id);
    expect(after).toMatchObject({ participants: 40, counted: 40 });
    // Rows of one transaction share its now(): fewer timestamps than registrations means batches.
    expect(after.transactions).toBeLessThan(40);
    const [slot] = (await db.query('SELECT taken FROM signups.slots WHERE id = $1', [slots[0]!.id])) as { taken: number }[];
    expect(slot!.taken).toBe(40);

    const events = (await db.query(
      `SELECT payload->>'subject' AS participant, request_id FROM signups.outbox WHERE type = 'participant.registered' AND payload->'data'->>'signupId' = $1`,
      [signup.id],
    )) as { participant: string; request_id: string }[];
    const requestOf = new Map(events.map((e) => [e.participant, e.request_id]));
    expect(requestOf.size).toBe(40);
    outcomes.forEach((outcome, i) => {
      const participantId = 'result' in outcome ? outcome.result.confirmed[0]!.participantId : undefined;
      expect(requestOf.get(participantId!)).toBe(`req-${i}`);
    });
  });

  it('refuse one registration of a batch on its own, as the ones before it left the signup', async () => {
    const { signup } = await h.signup(caller(), { signup: { maxParticipants: 5, requiresPhone: true } });
    const inputs = Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? { phone: '+14155550100' } : {}));
    const outcomes = await registerAll(signup.id, inputs);

    const full = 'This signup is full: all 5 places are taken.';
    const answers = outcomes.map((o) => ('problem' in o ? `${o.problem.code}: ${o.problem.detail}` : 'registered'));
    const withPhone = answers.filter((_, i) => i % 2 === 0);
    const withoutPhone = answers.filter((_, i) => i % 2 === 1);
    expect(withPhone.sort()).toEqual([...Array(2).fill(`bad_request: ${full}`), ...Array(5).fill('registered')]);
    // Refused for the phone while there was room, and for the room once full (the room is checked first).
    expect(withoutPhone.every((a) => a === `bad_request: ${full}` || a === 'validation_failed: This signup requires a phone number.')).toBe(
      true,
    );
    expect(await stored(signup.id)).toMatchObject({ participants: 5, counted: 5 });
  });

  it('count only the registrations stored when the selections of others find no room', async () => {
    const { signup, slots } = await h.signup(caller(), { slots: [{ title: 'Scarce', capacity: 3 }] });
    const outcomes = await registerAll(
      signup.id,
      Array.from({ length: 12 }, () => ({ selections: [{ type: 'slot', id: slots[0]!.id }] })),
    );

    expect(succeeded(outcomes)).toHaveLength(3);
    const refused = outcomes.flatMap((o) => ('result' in o && !o.result.success ? [o.result] : []));
    expect(refused).toHaveLength(9);
    for (const result of refused) {
      expect(result.confirmationToken).toBeUndefined();
      expect(result.failed).toEqual([expect.objectContaining({ id: slots[0]!.id, reason: 'full' })]);
    }
    expect(await stored(signup.id)).toMatchObject({ participants: 3, counted: 3 });

    // Batches where nothing is stored roll back: the signup row is not written at all.
    const version = async () =>
      ((await db.query('SELECT xmin::text AS xmin FROM signups.signups WHERE id = $1', [signup.id])) as { xmin: string }[])[0]!.xmin;
    const before = await version();
    const late = await registerAll(
      signup.id,
      Array.from({ length: 8 }, () => ({ selections: [{ type: 'slot', id: slots[0]!.id }] })),
    );
    expect(succeeded(late)).toHaveLength(0);
    expect(await version()).toBe(before);
  });

  it('run again one by one when one registration fails its batch, so only that one fails', async () => {
    const { signup } = await h.signup(caller());
    // A fault Postgres raises for one name: a registration no check before the database refuses.
    await db.query(`CREATE FUNCTION signups.refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'Refused by the database' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await db.query('CREATE TRIGGER refuse_one BEFORE INSERT ON signups.participants FOR EACH ROW EXECUTE FUNCTION signups.refuse_one()');
    try {
      const inputs = Array.from({ length: 12 }, (_, i) => (i === 6 ? { name: 'Refused by the database' } : {}));
      const sent = inputs.map((input) =>
        h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections: [], ...input } }),
      );
      const settled = await Promise.allSettled(sent);

      expect(settled.map((s) => s.status)).toEqual(inputs.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')));
      expect(await stored(signup.id)).toMatchObject({ participants: 11, counted: 11 });
    } finally {
      await db.query('DROP TRIGGER refuse_one ON signups.participants');
      await db.query('DROP FUNCTION signups.refuse_one()');
    }
  });
});
