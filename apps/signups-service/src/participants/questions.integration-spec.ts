import type { Principal, QuestionView, RegistrationInput } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_questions');
});

afterAll(async () => {
  await h?.close();
});

const form = [
  { type: 'single_choice' as const, label: 'T-shirt size', required: true, options: ['S', 'M', 'L'] },
  { type: 'short_text' as const, label: 'Allergies' },
  { type: 'number' as const, label: 'Guests', min: 0, max: 3 },
];

async function signupWithForm(owner: Principal) {
  const { signup } = await h.signup(owner, { signup: { questions: form } });
  return signup;
}

function register(signupId: string, input: Partial<RegistrationInput>) {
  return h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections: [], ...input } });
}

async function participants(owner: Principal, signupId: string) {
  return (await h.stack.bus.request('signups.participants.list', { principal: owner, signupId, query: {} })).data;
}

async function storedAnswers(participantId: string): Promise<unknown> {
  const [row] = (await h.app.context.dataSource!.query('SELECT answers FROM "signups"."participants" WHERE id = $1', [participantId])) as {
    answers: unknown;
  }[];
  return row?.answers;
}

const ids = (questions: QuestionView[]) => questions.map((q) => q.id);

describe('questions of a signup', () => {
  it('are created with server ids and returned, in order, on every read', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    expect(signup.questions).toEqual([
      {
        id: expect.any(String),
        type: 'single_choice',
        label: 'T-shirt size',
        required: true,
        options: ['S', 'M', 'L'],
        min: null,
        max: null,
      },
      { id: expect.any(String), type: 'short_text', label: 'Allergies', required: false, options: null, min: null, max: null },
      { id: expect.any(String), type: 'number', label: 'Guests', required: false, options: null, min: 0, max: 3 },
    ]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: signup.id })).questions).toEqual(signup.questions);
    expect((await h.stack.bus.request('signups.public.get', { slugOrId: signup.slug })).questions).toEqual(signup.questions);
    const listed = await h.stack.bus.request('signups.list', { principal: owner, query: {} });
    expect(listed.data.find((s) => s.id === signup.id)?.questions).toEqual(signup.questions);
  });

  it('are replaced by a PATCH that keeps the ids given, with their answers, and removes the others without losing their answers', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size, allergies, guests] = signup.questions;
    const { confirmed, confirmationToken } = await register(signup.id, {
      answers: { [size!.id]: 'M', [allergies!.id]: 'nuts', [guests!.id]: 2 },
    });
    expect(confirmationToken).toBeDefined();
    expect(confirmed).toEqual([]);

    const updated = await h.stack.bus.request('signups.update', {
      principal: owner,
      id: signup.id,
      input: {
        questions: [
          { id: guests!.id, type: 'number', label: 'How many guests?' },
          { ...form[0]! },
          { id: size!.id.toUpperCase(), ...form[0]! },
        ],
      },
    });
    expect(updated.questions.map((q) => q.label)).toEqual(['How many guests?', 'T-shirt size', 'T-shirt size']);
    expect(updated.questions[0]).toMatchObject({ id: guests!.id, min: null, max: null });
    expect(updated.questions[2]!.id).toBe(size!.id);
    expect(ids(updated.questions)).not.toContain(allergies!.id);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: signup.id })).questions).toEqual(updated.questions);
    await eventually(() => expect(h.eventsFor(signup.id, 'signup.updated').at(-1)?.data).toMatchObject({ questions: updated.questions }));

    const [participant] = await participants(owner, signup.id);
    expect(participant!.answers).toEqual({ [size!.id]: 'M', [allergies!.id]: 'nuts', [guests!.id]: 2 });
  });

  it('refuses a PATCH naming a question of another signup, or one question twice, and changes nothing', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const other = await signupWithForm(owner);
    const [size] = signup.questions;
    const problem = await problemOf(
      h.stack.bus.request('signups.update', {
        principal: owner,
        id: signup.id,
        input: {
          title: 'Renamed',
          questions: [
            { id: other.questions[0]!.id, ...form[1]! },
            { id: size!.id, ...form[0]! },
            { id: size!.id, ...form[0]! },
          ],
        },
      }),
    );
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      { path: 'questions.0.id', message: 'No question with this id in this signup' },
      { path: 'questions.2.id', message: 'Duplicate question' },
    ]);
    const after = await h.stack.bus.request('signups.get', { principal: owner, id: signup.id });
    expect(after.title).toBe(signup.title);
    expect(after.questions).toEqual(signup.questions);
  });

  it('refuses changing the type of a question asked, whose answers were given to that type, and changes nothing', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [first] = signup.questions;
    const problem = await problemOf(
      h.stack.bus.request('signups.update', {
        principal: owner,
        id: signup.id,
        input: { questions: [{ id: first!.id, type: 'yes_no', label: first!.label }] },
      }),
    );
    expect(problem.errors).toEqual([
      { path: 'questions.0.type', message: `Must stay ${first!.type}: remove the question and add a new one instead` },
    ]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: signup.id })).questions).toEqual(signup.questions);
  });
});

describe('answers on registration', () => {
  it('stores valid answers and returns them with the participant', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size, , guests] = signup.questions;
    await register(signup.id, { answers: { [size!.id]: 'L', [guests!.id]: 0 } });
    const [participant] = await participants(owner, signup.id);
    expect(participant!.answers).toEqual({ [size!.id]: 'L', [guests!.id]: 0 });
    await eventually(() =>
      expect(h.eventsFor(participant!.id, 'participant.registered')[0]?.data).toMatchObject({ answers: participant!.answers }),
    );
  });

  it('refuses invalid answers with their paths and stores nothing', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [, allergies, guests] = signup.questions;
    const unknown = 'b0000000-0000-4000-8000-000000000000';
    const problem = await problemOf(register(signup.id, { answers: { [allergies!.id]: 7, [guests!.id]: 4, [unknown]: 'x' } }));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      { path: `answers.${allergies!.id}`, message: 'Expected text' },
      { path: `answers.${guests!.id}`, message: 'Must be at most 3' },
      { path: `answers.${unknown}`, message: 'No question with this id in this signup' },
      { path: `answers.${signup.questions[0]!.id}`, message: 'Required: this question must be answered' },
    ]);
    expect(await participants(owner, signup.id)).toEqual([]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: signup.id })).participantCount).toBe(0);
  });

  it('refuses an answer to a removed question', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size, allergies] = signup.questions;
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { questions: [{ id: size!.id, ...form[0]! }] } });
    const problem = await problemOf(register(signup.id, { answers: { [size!.id]: 'S', [allergies!.id]: 'nuts' } }));
    expect(problem.errors).toEqual([{ path: `answers.${allergies!.id}`, message: 'No question with this id in this signup' }]);
  });
});

describe('answers in edits', () => {
  it('merge by token: a given answer replaces its own, null clears an optional one, and the others stay', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size, allergies, guests] = signup.questions;
    const { confirmationToken } = await register(signup.id, { answers: { [size!.id]: 'M', [allergies!.id]: 'nuts' } });
    const view = await h.stack.bus.request('signups.registrations.update', {
      token: confirmationToken!,
      input: { answers: { [allergies!.id]: null, [guests!.id]: 1 } },
    });
    expect(view.participant.answers).toEqual({ [size!.id]: 'M', [guests!.id]: 1 });
    expect(await storedAnswers(view.participant.id)).toEqual({ [size!.id]: 'M', [guests!.id]: 1 });
  });

  it('by the organizer: refuse clearing a required answer or an answer that does not fit, and change nothing', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size, allergies] = signup.questions;
    await register(signup.id, { answers: { [size!.id]: 'M' } });
    const [participant] = await participants(owner, signup.id);
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.update', {
        principal: owner,
        signupId: signup.id,
        id: participant!.id,
        input: { name: 'Renamed', answers: { [size!.id]: null, [allergies!.id]: ['a'] } },
      }),
    );
    expect(problem.errors).toEqual([
      { path: `answers.${size!.id}`, message: 'Required: this question must be answered' },
      { path: `answers.${allergies!.id}`, message: 'Expected text' },
    ]);
    const [after] = await participants(owner, signup.id);
    expect(after).toEqual(participant);
  });

  it('do not need answers to questions added after the registration', async () => {
    const owner = caller();
    const signup = await signupWithForm(owner);
    const [size] = signup.questions;
    const { confirmationToken } = await register(signup.id, { answers: { [size!.id]: 'M' } });
    const updated = await h.stack.bus.request('signups.update', {
      principal: owner,
      id: signup.id,
      input: { questions: [...signup.questions, { type: 'yes_no', label: 'Vegetarian?', required: true }] },
    });
    expect(updated.questions).toHaveLength(4);
    const view = await h.stack.bus.request('signups.registrations.update', {
      token: confirmationToken!,
      input: { answers: { [size!.id]: 'S' } },
    });
    expect(view.participant.answers).toEqual({ [size!.id]: 'S' });
    expect(view.signup.questions).toEqual(updated.questions);
  });
});
