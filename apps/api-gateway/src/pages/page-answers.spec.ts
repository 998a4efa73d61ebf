import type { QuestionView } from '#libs/contracts';
import { answerValues, changedQuestions, NUMBER_MESSAGE, readAnswers, readChecked, YES_NO_MESSAGE } from './page-answers.js';
import { emptyForm, placeErrors, readForm } from './page-form.js';
import { questionFieldset } from './question-fields.js';

const EVIL = '<script>alert("x")</script>';
const question = (id: string, type: QuestionView['type'], overrides: Partial<QuestionView> = {}): QuestionView => ({
  id,
  type,
  label: EVIL,
  required: false,
  options: null,
  min: null,
  max: null,
  ...overrides,
});
const ID = (n: number) => `0190a0b2-7a3c-7def-8a12-00000000000${n}`;
const questions = [
  question(ID(1), 'short_text', { required: true }),
  question(ID(2), 'multiple_choice', { options: ['a', EVIL] }),
  question(ID(3), 'yes_no'),
  question(ID(4), 'number'),
];

describe('reading answers from a page form', () => {
  it('reads each control as its answer type, and every checked box', () => {
    const body = { [`q-${ID(1)}`]: ' nuts ', [`q-${ID(2)}`]: ['a', EVIL], [`q-${ID(3)}`]: 'no', [`q-${ID(4)}`]: '1.5' };
    const checked = readChecked(body, questions);
    expect(readAnswers(questions, readForm(body), checked)).toEqual({
      answers: { [ID(1)]: 'nuts', [ID(2)]: ['a', EVIL], [ID(3)]: false, [ID(4)]: 1.5 },
      cleared: [],
      errors: {},
    });
  });

  it('says Required for an unanswered required question on registration, and refuses what cannot be an answer', () => {
    expect(readAnswers(questions, { [`q-${ID(3)}`]: 'maybe', [`q-${ID(4)}`]: '1e400' }, {}).errors).toEqual({
      [`q-${ID(1)}`]: ['Required'],
      [`q-${ID(3)}`]: [YES_NO_MESSAGE],
      [`q-${ID(4)}`]: [NUMBER_MESSAGE],
    });
  });

  it('on an edit, clears only the emptied questions that had an answer', () => {
    const read = readAnswers(questions, { [`q-${ID(1)}`]: '' }, {}, { [ID(1)]: 'x', [ID(3)]: true });
    expect(read).toEqual({ answers: {}, cleared: [ID(1), ID(3)], errors: {} });
  });

  it('fills the form from stored answers and places the service errors beside their question', () => {
    expect(answerValues(questions, { [ID(2)]: ['a'], [ID(3)]: true, [ID(4)]: 2 })).toEqual({
      values: { [`q-${ID(3)}`]: 'yes', [`q-${ID(4)}`]: '2' },
      checked: { [`q-${ID(2)}`]: ['a'] },
    });
    const form = placeErrors(emptyForm(), [{ path: `answers.${ID(4)}`, message: 'Must be at most 3' }], [], [`q-${ID(4)}`]);
    expect(form.errors).toEqual({ [`q-${ID(4)}`]: ['Must be at most 3'] });
  });
});

describe('question controls', () => {
  it('labels each control, marks required ones, keeps entered values and escapes the organizer text', () => {
    const form = emptyForm({ [`q-${ID(1)}`]: '"><b>x' }, { [`q-${ID(2)}`]: [EVIL] });
    form.errors[`q-${ID(1)}`] = ['Required'];
    const page = questionFieldset(form, [
      ...questions,
      question(ID(5), 'long_text'),
      question(ID(6), 'single_choice', { options: ['S'] }),
    ]).value;
    expect(page).not.toContain('<script>');
    expect(page).toContain(`<label for="q-${ID(1)}">&lt;script&gt;`);
    expect(page).toContain('value="&quot;&gt;&lt;b&gt;x"');
    expect(page).toMatch(new RegExp(`id="q-${ID(1)}" name="q-${ID(1)}" required aria-describedby="q-${ID(1)}-error" aria-invalid="true"`));
    expect(page).toContain(
      `type="checkbox" id="q-${ID(2)}-1" name="q-${ID(2)}" value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" checked`,
    );
    expect(page).toContain(`<textarea id="q-${ID(5)}"`);
    expect(page).toContain(`type="radio" id="q-${ID(6)}-0" name="q-${ID(6)}" value="S"`);
    expect(page).toContain(`type="number" id="q-${ID(4)}"`);
  });
});

describe('the answers an edit changed', () => {
  const size = question(ID(5), 'single_choice', { options: ['S', 'M'] });
  const helps = question(ID(6), 'multiple_choice', { options: ['Setup', 'Tidy'] });
  const note = question(ID(7), 'long_text');
  const count = question(ID(8), 'number', { max: 5 });
  const asked = [size, helps, note, count];
  // Given before the questions changed: L and Cleanup are no longer offered, 10 is above the new max.
  const stored = { [ID(5)]: 'L', [ID(6)]: ['Setup', 'Cleanup'], [ID(7)]: 'line one\nline two', [ID(8)]: 10 };

  it('finds none in a form sent back as it was shown (a choice no longer offered unchecked, line ends as browsers send them)', () => {
    const values = { [`q-${ID(7)}`]: 'line one\r\nline two', [`q-${ID(8)}`]: '10' };
    expect(changedQuestions(asked, stored, values, { [`q-${ID(6)}`]: ['Setup'] })).toEqual([]);
  });

  it('finds each question the person changed, and only those', () => {
    const values = { [`q-${ID(5)}`]: 'M', [`q-${ID(7)}`]: 'line one\r\nline two', [`q-${ID(8)}`]: '' };
    expect(changedQuestions(asked, stored, values, { [`q-${ID(6)}`]: ['Setup', 'Tidy'] })).toEqual([size, helps, count]);
  });
});
