import { isChoiceQuestion, newId, type QuestionInput, type QuestionType } from '#libs/contracts';
import { type FieldError, ProblemError } from '#libs/problem';

/** One question of a signup's form, as the domain sees it (options for choice questions, bounds for number ones, else null). */
export interface Question {
  id: string;
  type: QuestionType;
  label: string;
  required: boolean;
  options: string[] | null;
  min: number | null;
  max: number | null;
}

/**
 * The questions a creation or a PATCH asks for, in order: one whose id names a question the
 * signup asks now (`asked`, with their types) keeps it, one without an id gets a new one. Any
 * other id, and an id given twice, is a 422 on its `questions.<i>.id`; a question given another
 * type than it has is a 422 on its `questions.<i>.type` (its answers were given to that type).
 */
export function questionsOf(input: QuestionInput[], asked: ReadonlyMap<string, Question['type']>): Question[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const questions = input.map((q, i): Question => {
    const id = q.id?.toLowerCase();
    if (id !== undefined && !asked.has(id)) errors.push({ path: `questions.${i}.id`, message: 'No question with this id in this signup' });
    else if (id !== undefined && seen.has(id)) errors.push({ path: `questions.${i}.id`, message: 'Duplicate question' });
    // Its answers were given to that type: a question keeps it (remove it and add another to ask something else).
    else if (id !== undefined && asked.get(id) !== q.type) {
      errors.push({ path: `questions.${i}.type`, message: `Must stay ${asked.get(id)}: remove the question and add a new one instead` });
    }
    if (id !== undefined) seen.add(id);
    return {
      id: id ?? newId(),
      type: q.type,
      label: q.label,
      required: q.required ?? false,
      options: isChoiceQuestion(q.type) ? (q.options ?? null) : null,
      min: q.type === 'number' ? (q.min ?? null) : null,
      max: q.type === 'number' ? (q.max ?? null) : null,
    };
  });
  if (errors.length > 0) throw ProblemError.validation(errors, 'A question id must name a question of this signup, once.');
  return questions;
}
