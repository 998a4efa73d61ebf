import { type AnswerValue, type ParticipantView, type QuestionView, TEXT_ANSWER_MAX_LENGTH } from '#libs/contracts';

/** The form field of a question, e.g. `q-0190…`: one input, one radio group or one group of checkboxes. */
export const questionField = (question: Pick<QuestionView, 'id'>): string => `q-${question.id}`;

/** How long a question's text may come from the form before it is cut: one more than any answer takes, so an overlong one is still refused. */
export const ANSWER_FORM_MAX_LENGTH = TEXT_ANSWER_MAX_LENGTH.long_text + 1;

/** The most boxes of one multiple choice read from a form (as many as a question has options). */
const MAX_CHECKED = 50;

export const YES_NO_MESSAGE = 'Choose yes or no';
export const NUMBER_MESSAGE = 'Enter a number, e.g. 2 or 1.5';
const NUMBER = /^-?\d{1,15}(?:\.\d{1,15})?$/;

/** Every value of each multiple-choice field of a urlencoded body (repeated keys), bounded. */
export function readChecked(body: unknown, questions: QuestionView[]): Record<string, string[]> {
  const fields = new Set(questions.filter((q) => q.type === 'multiple_choice').map(questionField));
  const checked: Record<string, string[]> = {};
  if (typeof body !== 'object' || body === null) return checked;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (!fields.has(key)) continue;
    const values = (Array.isArray(value) ? (value as unknown[]) : [value]).filter((v): v is string => typeof v === 'string');
    checked[key] = values.slice(0, MAX_CHECKED).map((v) => v.slice(0, ANSWER_FORM_MAX_LENGTH));
  }
  return checked;
}

/** A question's answer as the form holds it; undefined when left empty, an error message when it cannot be one. */
function answerOf(
  question: QuestionView,
  value: string | undefined,
  checked: string[] | undefined,
): AnswerValue | undefined | { error: string } {
  const raw = value?.trim() ?? '';
  switch (question.type) {
    case 'multiple_choice':
      return checked?.length ? checked : undefined;
    case 'yes_no':
      if (raw === '') return undefined;
      return raw === 'yes' ? true : raw === 'no' ? false : { error: YES_NO_MESSAGE };
    case 'number':
      if (raw === '') return undefined;
      return NUMBER.test(raw) ? Number(raw) : { error: NUMBER_MESSAGE };
    default:
      return raw === '' ? undefined : raw;
  }
}

export interface ReadAnswers {
  /** Answered questions, keyed by id. */
  answers: Record<string, AnswerValue>;
  /** On an edit: the questions that had an answer and were emptied. */
  cleared: string[];
  errors: Record<string, string[]>;
}

/**
 * The answers a form holds. On registration (`answered` undefined) an unanswered required question
 * is an error here already, as the service would say. On an edit, an emptied question that had an
 * answer is cleared (sent as null) (the service refuses clearing a required one); one that had none is left
 * alone, so a question added after the registration is not asked for.
 */
export function readAnswers(
  questions: QuestionView[],
  values: Record<string, string>,
  checked: Record<string, string[]>,
  answered?: ParticipantView['answers'],
): ReadAnswers {
  const answers: Record<string, AnswerValue> = {};
  const cleared: string[] = [];
  const errors: Record<string, string[]> = {};
  for (const question of questions) {
    const field = questionField(question);
    const answer = answerOf(question, values[field], checked[field]);
    if (typeof answer === 'object' && answer !== null && 'error' in answer) errors[field] = [answer.error];
    else if (answer !== undefined) answers[question.id] = answer;
    else if (answered === undefined && question.required) errors[field] = ['Required'];
    else if (answered !== undefined && question.id in answered) cleared.push(question.id);
  }
  return { answers, cleared, errors };
}

/** The form's values of stored answers: text as is, numbers as written, yes/no as yes or no, choices checked. */
export function answerValues(questions: QuestionView[], answers: ParticipantView['answers']) {
  const values: Record<string, string> = {};
  const checked: Record<string, string[]> = {};
  for (const question of questions) {
    const answer = answers[question.id];
    if (answer === undefined) continue;
    if (Array.isArray(answer)) checked[questionField(question)] = answer;
    else if (typeof answer === 'boolean') values[questionField(question)] = answer ? 'yes' : 'no';
    else values[questionField(question)] = String(answer);
  }
  return { values, checked };
}

/**
 * The questions whose form value differs from what the form first showed of the stored answer
 * (line ends as browsers send them aside): a choice no longer offered was shown unchecked, so it
 * counts as unchanged while nothing is chosen in its place.
 */
export function changedQuestions(
  questions: QuestionView[],
  stored: ParticipantView['answers'],
  values: Record<string, string>,
  checked: Record<string, string[]>,
): QuestionView[] {
  const shown = answerValues(questions, stored);
  const text = (value: string | undefined) => (value ?? '').replaceAll('\r\n', '\n').trim();
  return questions.filter((question) => {
    const field = questionField(question);
    const offered = new Set(question.options ?? []);
    if (question.type === 'multiple_choice') {
      const before = (shown.checked[field] ?? []).filter((option) => offered.has(option)).sort();
      const after = [...(checked[field] ?? [])].sort();
      return before.length !== after.length || before.some((option, i) => option !== after[i]);
    }
    const before = shown.values[field];
    const showable = question.type !== 'single_choice' || (before !== undefined && offered.has(before));
    return text(values[field]) !== text(showable ? before : undefined);
  });
}

/** An answer in words, for the manage page. */
export function answerText(answer: AnswerValue): string {
  if (Array.isArray(answer)) return answer.join(', ');
  if (typeof answer === 'boolean') return answer ? 'Yes' : 'No';
  return String(answer);
}
