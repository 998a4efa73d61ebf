import type { SelectionInput } from '#libs/contracts';
import type { FieldError } from '#libs/problem';
import type { Kind } from '../signups/slot-item.js';
import type { Selection } from './participant.js';

/** Validated selections with ids in canonical (lowercase) form and the default quantity of 1. */
export function normalizeSelections(input: SelectionInput[]): Selection[] {
  return input.map((s) => ({ type: s.type, id: s.id.toLowerCase(), quantity: s.quantity ?? 1 }));
}

export function keyOf(selection: { type: Kind; id: string }): string {
  return `${selection.type}:${selection.id}`;
}

/** A second selection of the same slot or item is refused on its own index (ask for a quantity instead). */
export function duplicateErrors(selections: Selection[]): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  selections.forEach((selection, i) => {
    const key = keyOf(selection);
    if (seen.has(key)) errors.push({ path: `selections.${i}.id`, message: 'Duplicate selection' });
    seen.add(key);
  });
  return errors;
}

/**
 * The order in which slot and item rows are locked: slots before items, each by id. Every
 * write that touches several while others may (edits, removals) takes them in this order, so two
 * writes never wait for each other in a cycle (a deadlock). A registration holds the one signup
 * lock that excludes every other such write, so it takes its own in one statement.
 */
export function lockOrder(a: { type: Kind; id: string }, b: { type: Kind; id: string }): number {
  if (a.type !== b.type) return a.type === 'slot' ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How much of one slot or item an edit takes (positive) or gives back (negative); index: its place in the new selections. */
export interface Delta {
  type: Kind;
  id: string;
  delta: number;
  index?: number;
}

/** Replacing `before` by `after` as one net change per slot or item, in lock order, without the unchanged ones. */
export function deltasOf(before: Selection[], after: Selection[]): Delta[] {
  const deltas = new Map<string, Delta>();
  for (const s of before) deltas.set(keyOf(s), { type: s.type, id: s.id, delta: -s.quantity });
  after.forEach((s, index) => {
    const previous = deltas.get(keyOf(s))?.delta ?? 0;
    deltas.set(keyOf(s), { type: s.type, id: s.id, delta: previous + s.quantity, index });
  });
  return [...deltas.values()].filter((d) => d.delta !== 0).sort(lockOrder);
}
