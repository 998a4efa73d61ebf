import type { Question } from '../signups/question.js';
import { answerProblem, answersOnEdit, answersOnRegistration } from './answers.js';

const question = (overrides: Partial<Question> & Pick<Question, 'id' | 'type'>): Question => ({
  label: 'Q',
  required: false,
  options: null,
  min: null,
  max: null,
  ...overrides,
});

const short = question({ id: 'a0000000-0000-4000-8000-000000000001', type: 'short_text' });
const long = question({ id: 'a0000000-0000-4000-8000-000000000002', type: 'long_text' });
const single = question({ id: 'a0000000-0000-4000-8000-000000000003', type: 'single_choice', options: ['S', 'M', 'L'] });
const multiple = question({ id: 'a0000000-0000-4000-8000-000000000004', type: 'multiple_choice', options: ['Sat', 'Sun'] });
const yesNo = question({ id: 'a0000000-0000-4000-8000-000000000005', type: 'yes_no', required: true });
const count = question({ id: 'a0000000-0000-4000-8000-000000000006', type: 'number', min: 0, max: 4 });
const questions = [short, long, single, multiple, yesNo, count];

describe('answerProblem', () => {
  it('takes text up to 500 characters for a short text and 5000 for a long one', () => {
    expect(answerProblem(short, 'x'.repeat(500))).toBeUndefined();
    expect(answerProblem(short, 'x'.repeat(501))).toBe('Must be at most 500 characters');
    expect(answerProblem(long, 'x'.repeat(5000))).toBeUndefined();
    expect(answerProblem(long, 'x'.repeat(5001))).toBe('Must be at most 5000 characters');
    expect(answerProblem(short, 3)).toBe('Expected text');
  });

  it('takes one offered option for a single choice', () => {
    expect(answerProblem(single, 'M')).toBeUndefined();
    expect(answerProblem(single, 'XL')).toBe('Not one of the options: "XL"');
    expect(answerProblem(single, ['M'])).toBe('Expected one of the options, as text');
  });

  it('takes distinct offered options for a multiple choice', () => {
    expect(answerProblem(multiple, ['Sat', 'Sun'])).toBeUndefined();
    expect(answerProblem(multiple, ['Sat', 'Mon'])).toBe('Not one of the options: "Mon"');
    expect(answerProblem(multiple, ['Sat', 'Sat'])).toBe('Choose each option once');
    expect(answerProblem(multiple, 'Sat')).toBe('Expected a list of options');
  });

  it('takes a boolean for yes/no', () => {
    expect(answerProblem(yesNo, false)).toBeUndefined();
    expect(answerProblem(yesNo, 'yes')).toBe('Expected true or false');
  });

  it('takes a number within the bounds', () => {
    expect(answerProblem(count, 0)).toBeUndefined();
    expect(answerProblem(count, 4)).toBeUndefined();
    expect(answerProblem(count, -1)).toBe('Must be at least 0');
    expect(answerProblem(count, 4.5)).toBe('Must be at most 4');
    expect(answerProblem(count, '2')).toBe('Expected a number');
    expect(answerProblem(question({ id: count.id, type: 'number' }), -1e9)).toBeUndefined();
  });
});

describe('answersOnRegistration', () => {
  it('keeps the answers keyed by question id, leaving out empty ones', () => {
    expect(
      answersOnRegistration(questions, { [yesNo.id.toUpperCase()]: true, [short.id]: '  ', [multiple.id]: [], [count.id]: 2 }),
    ).toEqual({
      answers: { [yesNo.id]: true, [count.id]: 2 },
      errors: [],
    });
  });

  it('names each answer that does not fit, and each required question left unanswered', () => {
    const unknown = 'b0000000-0000-4000-8000-000000000000';
    expect(answersOnRegistration(questions, { [unknown]: 'x', [single.id]: 'XL' }).errors).toEqual([
      { path: `answers.${unknown}`, message: 'No question with this id in this signup' },
      { path: `answers.${single.id}`, message: 'Not one of the options: "XL"' },
      { path: `answers.${yesNo.id}`, message: 'Required: this question must be answered' },
    ]);
  });

  it('refuses an empty answer to a required question once', () => {
    expect(answersOnRegistration(questions, { [yesNo.id]: [] }).errors).toEqual([
      { path: `answers.${yesNo.id}`, message: 'Required: this question must be answered' },
    ]);
  });

  it('refuses a second answer to one question under another spelling of its id, rather than keep either silently', () => {
    expect(answersOnRegistration(questions, { [yesNo.id.toUpperCase()]: true, [yesNo.id]: false }).errors).toEqual([
      { path: `answers.${yesNo.id}`, message: 'Duplicate answer: this question is answered under another spelling of its id' },
    ]);
  });

  it('refuses an answer to a question the signup no longer asks', () => {
    expect(answersOnRegistration([yesNo], { [yesNo.id]: true, [short.id]: 'x' }).errors).toEqual([
      { path: `answers.${short.id}`, message: 'No question with this id in this signup' },
    ]);
  });
});

describe('answersOnEdit', () => {
  const stored = { [yesNo.id]: true, [short.id]: 'nuts', 'c0000000-0000-4000-8000-000000000000': 'removed question' };

  it('merges the answers given into the stored ones and clears optional ones given null or empty', () => {
    expect(answersOnEdit(questions, stored, { [short.id]: null, [count.id]: 3, [long.id]: '' })).toEqual({
      answers: { [yesNo.id]: true, [count.id]: 3, 'c0000000-0000-4000-8000-000000000000': 'removed question' },
      errors: [],
    });
  });

  it('checks only the answers given: a required question added later does not invalidate the edit', () => {
    const added = question({ id: 'a0000000-0000-4000-8000-000000000007', type: 'short_text', required: true });
    expect(answersOnEdit([...questions, added], stored, { [count.id]: 1 }).errors).toEqual([]);
  });

  it('refuses clearing a required question and answers that do not fit', () => {
    expect(answersOnEdit(questions, stored, { [yesNo.id]: null, [count.id]: 9 }).errors).toEqual([
      { path: `answers.${yesNo.id}`, message: 'Required: this question must be answered' },
      { path: `answers.${count.id}`, message: 'Must be at most 4' },
    ]);
  });
});
