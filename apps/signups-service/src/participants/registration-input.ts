import { type SelectionInput, toE164 } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Selection } from './participant.js';
import { duplicateErrors, normalizeSelections } from './selections.js';

/** Validated selections in canonical form; a second selection of one slot or item is a 422. */
export function selectionsOf(input: SelectionInput[]): Selection[] {
  const selections = normalizeSelections(input);
  const duplicates = duplicateErrors(selections);
  if (duplicates.length > 0) throw ProblemError.validation(duplicates, 'Select each slot or item once; ask for a quantity instead.');
  return selections;
}

/** A validated phone in E.164; null and undefined pass through (clear, leave alone). */
export function phoneOf<T extends null | undefined>(phone: string | T): string | T {
  return typeof phone === 'string' ? toE164(phone) : phone;
}
