import { ProblemError } from '#libs/problem';
import { RegistrationDto, UpdateRegistrationDto } from './participants.js';
import { CreateSignupDto } from './signups.js';
import { validateInput } from './validation.js';

async function errorsOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return (err as ProblemError).errors;
  }
  throw new Error('expected a problem');
}

const signupWith = (...questions: unknown[]) => ({ title: 'Potluck', eventDate: '2026-12-24T18:00:00Z', questions });
const registrationWith = (answers: unknown) => ({ name: 'Ana', email: 'ana@example.com', selections: [], answers });

describe('questions on a signup', () => {
  it('takes each type with the fields it needs', async () => {
    const dto = await validateInput(
      CreateSignupDto,
      signupWith(
        { type: 'short_text', label: 'Allergies' },
        { type: 'long_text', label: 'Anything else?', required: true },
        { type: 'single_choice', label: 'Size', options: ['S', 'M'] },
        { type: 'multiple_choice', label: 'Days', options: ['Sat', 'Sun'] },
        { type: 'yes_no', label: 'Vegetarian?' },
        { type: 'number', label: 'Guests', min: 0, max: 4.5 },
      ),
    );
    expect(dto.questions?.map((q) => q.type)).toEqual(['short_text', 'long_text', 'single_choice', 'multiple_choice', 'yes_no', 'number']);
  });

  it('needs options on a choice question and refuses them on the others', async () => {
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'single_choice', label: 'Size' })))).toEqual([
      { path: 'questions.0.options', message: 'Required for single_choice and multiple_choice questions' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'yes_no', label: 'Ok?', options: ['a'] })))).toEqual([
      { path: 'questions.0.options', message: 'Only for single_choice and multiple_choice questions' },
    ]);
  });

  it('refuses empty, repeated, overlong and non-text options', async () => {
    const choice = (options: unknown) => signupWith({ type: 'multiple_choice', label: 'Days', options });
    expect(await errorsOf(validateInput(CreateSignupDto, choice([])))).toEqual([
      { path: 'questions.0.options', message: 'Must not be empty' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, choice(['a', 'a'])))).toEqual([
      { path: 'questions.0.options', message: 'Entries must be distinct' },
    ]);
    for (const options of [['x'.repeat(201)], [''], [3], ['a\u0000']]) {
      expect(await errorsOf(validateInput(CreateSignupDto, choice(options)))).toEqual([
        { path: 'questions.0.options', message: 'Each entry must be text of 1 to 200 characters, without control characters' },
      ]);
    }
    expect(await errorsOf(validateInput(CreateSignupDto, choice(Array.from({ length: 51 }, (_, i) => `o${i}`))))).toEqual([
      { path: 'questions.0.options', message: 'Must have at most 50 entries' },
    ]);
  });

  it('takes bounds only on a number question, finite and in order', async () => {
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'short_text', label: 'x', min: 1 })))).toEqual([
      { path: 'questions.0.min', message: 'Only for number questions' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'number', label: 'x', min: 5, max: 1 })))).toEqual([
      { path: 'questions.0.max', message: 'Must not be less than min' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'number', label: 'x', min: '1' })))).toEqual([
      { path: 'questions.0.min', message: 'Expected number' },
    ]);
  });

  it('refuses an unknown type, an empty or overlong label and more than 50 questions', async () => {
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'date', label: 'When' })))).toEqual([
      { path: 'questions.0.type', message: 'Must be one of: short_text, long_text, single_choice, multiple_choice, yes_no, number' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'yes_no', label: '' })))).toEqual([
      { path: 'questions.0.label', message: 'Must not be empty' },
    ]);
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith({ type: 'yes_no', label: 'x'.repeat(501) })))).toEqual([
      { path: 'questions.0.label', message: 'Must be at most 500 characters' },
    ]);
    const many = Array.from({ length: 51 }, () => ({ type: 'yes_no', label: 'x' }));
    expect(await errorsOf(validateInput(CreateSignupDto, signupWith(...many)))).toEqual([
      { path: 'questions', message: 'Must have at most 50 entries' },
    ]);
  });
});

describe('answers in a body', () => {
  const id = '0190a0b2-7a3c-7def-8a12-1234567890ab';

  it('takes text, numbers, booleans and lists of text', async () => {
    const dto = await validateInput(RegistrationDto, registrationWith({ [id]: 'M', a: 3, b: true, c: ['x', 'y'] }));
    expect(dto.answers).toEqual({ [id]: 'M', a: 3, b: true, c: ['x', 'y'] });
  });

  it('refuses what is not an object of answers of bounded size', async () => {
    const refused: [unknown, string][] = [
      [[], 'Expected an object keyed by question id'],
      ['x', 'Expected an object keyed by question id'],
      [{ [id]: { nested: true } }, `Answer "${id}": Expected text, a number, a boolean or a list of texts`],
      [{ [id]: [['deep']] }, `Answer "${id}": Each entry must be text of at most 200 characters`],
      [{ [id]: 'x'.repeat(5001) }, `Answer "${id}": Must be at most 5000 characters`],
      [{ [id]: '\ud800' }, `Answer "${id}": Must be valid Unicode without control characters`],
      [{ [id]: null }, `Answer "${id}": Expected a value, not null`],
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'x'])), 'Must have at most 50 answers'],
    ];
    for (const [answers, message] of refused) {
      expect(await errorsOf(validateInput(RegistrationDto, registrationWith(answers)))).toEqual([{ path: 'answers', message }]);
    }
  });

  it('takes null in an edit, to clear an answer', async () => {
    const dto = await validateInput(UpdateRegistrationDto, { answers: { [id]: null } });
    expect(dto.answers).toEqual({ [id]: null });
  });
});
