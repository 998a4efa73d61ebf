import { type AnswerValue, TEXT_ANSWER_MAX_LENGTH } from '#libs/contracts';
import { type FieldError, ProblemError } from '#libs/problem';
import type { Question } from '../signups/question.js';

/** A participant's answers, keyed by question id: only the questions answered. */
export type Answers = Record<string, AnswerValue>;
/** An edit of the answers: each replaces its answer, null (or an empty answer) clears it. */
export type AnswerChanges = Record<string, AnswerValue | null>;

/** The answers as a check left them, and what did not fit (answers.<questionId>). */
export interface AnswerCheck {
  answers: Answers;
  errors: FieldError[];
}

/** Text of only blanks, or an empty list: no answer. */
function isEmpty(value: AnswerValue | null): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

function notAnOption(value: string): string {
  return `Not one of the options: ${JSON.stringify(value.slice(0, 200))}`;
}

/** Why an answer does not fit its question (undefined: it does). */
export function answerProblem(question: Question, value: AnswerValue): string | undefined {
  switch (question.type) {
    case 'short_text':
    case 'long_text': {
      if (typeof value !== 'string') return 'Expected text';
      const max = TEXT_ANSWER_MAX_LENGTH[question.type];
      return value.length > max ? `Must be at most ${max} characters` : undefined;
    }
    case 'single_choice':
      if (typeof value !== 'string') return 'Expected one of the options, as text';
      return question.options!.includes(value) ? undefined : notAnOption(value);
    case 'multiple_choice': {
      if (!Array.isArray(value)) return 'Expected a list of options';
      const unknown = value.find((choice) => !question.options!.includes(choice));
      if (unknown !== undefined) return notAnOption(unknown);
      return new Set(value).size === value.length ? undefined : 'Choose each option once';
    }
    case 'yes_no':
      return typeof value === 'boolean' ? undefined : 'Expected true or false';
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Expected a number';
      if (question.min !== null && value < question.min) return `Must be at least ${question.min}`;
      if (question.max !== null && value > question.max) return `Must be at most ${question.max}`;
      return undefined;
  }
}

/**
 * Applies answers to the questions a signup asks now: each given answer must name one of them and
 * fit it (an empty one clears it, which a required question refuses). Unknown ids (removed
 * questions too) are refused. The others of `stored` are kept as they are.
 */
function apply(questions: Question[], stored: Answers, given: AnswerChanges): AnswerCheck {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const answers: Answers = { ...stored };
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(given)) {
    const path = `answers.${key}`;
    const question = byId.get(key.toLowerCase());
    if (!question) {
      errors.push({ path, message: 'No question with this id in this signup' });
      continue;
    }
    if (seen.has(question.id)) {
      errors.push({ path, message: 'Duplicate answer: this question is answered under another spelling of its id' });
      continue;
    }
    seen.add(question.id);
    if (isEmpty(value)) {
      if (question.required) errors.push({ path, message: 'Required: this question must be answered' });
      delete answers[question.id];
    } else {
      const problem = answerProblem(question, value!);
      if (problem) errors.push({ path, message: problem });
      else answers[question.id] = value!;
    }
  }
  return { answers, errors };
}

/** The answers of a registration: every required question of the signup answered, every answer fitting its question. */
export function answersOnRegistration(questions: Question[], given: Answers): AnswerCheck {
  const { answers, errors } = apply(questions, {}, given);
  const reported = new Set(errors.map((e) => e.path.slice('answers.'.length).toLowerCase()));
  for (const question of questions) {
    if (question.required && !(question.id in answers) && !reported.has(question.id)) {
      errors.push({ path: `answers.${question.id}`, message: 'Required: this question must be answered' });
    }
  }
  return { answers, errors };
}

/**
 * The answers after an edit merged `changes` into the `stored` ones. Only the answers the edit
 * gives are checked: a question added after the registration does not make it invalid, but a
 * required question cannot be cleared.
 */
export function answersOnEdit(questions: Question[], stored: Answers, changes: AnswerChanges): AnswerCheck {
  return apply(questions, stored, changes);
}

/** The 422 for answers that do not fit: nothing is stored. */
export function invalidAnswers(errors: FieldError[]): ProblemError {
  return ProblemError.validation(errors, "Some answers do not fit the signup's questions.");
}
