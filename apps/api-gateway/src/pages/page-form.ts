import type { FieldError } from '#libs/problem';
import type { ItemView, PublicSignupView, SelectionInput, SelectionType, SlotView } from '#libs/contracts';

/** What a page form holds: the entered values and the messages, by field name. */
export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  /** Problems not tied to one field (e.g. a selection that could not be had). */
  summary: string[];
}

export const emptyForm = (values: Record<string, string> = {}): FormState => ({ values, errors: {}, summary: [] });

/** The form field of a slot's or item's quantity, e.g. `slot-0190…`. */
export const quantityField = (type: SelectionType, id: string): string => `${type}-${id}`;

export interface Choice {
  type: SelectionType;
  field: string;
  label: string;
  entity: SlotView | ItemView;
}

/** Every slot, then every item, of a signup, as form choices. */
export function choicesOf(signup: PublicSignupView): Choice[] {
  return [
    ...signup.slots.map((slot): Choice => ({ type: 'slot', field: quantityField('slot', slot.id), label: slot.title, entity: slot })),
    ...signup.items.map((item): Choice => ({ type: 'item', field: quantityField('item', item.id), label: item.name, entity: item })),
  ];
}

/** A urlencoded body as single string values (the first of repeated keys; anything else dropped). */
export function readForm(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof first === 'string') values[key] = first;
  }
  return values;
}

export const QUANTITY_MESSAGE = 'Enter a whole number, 0 or more';

/**
 * Quantities above 0 become selections, in the order of the choices. `fields[i]` is the form
 * field of `selections[i]`, to put the service's messages (selections.i.quantity) next to it.
 */
export function readSelections(choices: Choice[], values: Record<string, string>): { selections: SelectionInput[]; fields: string[]; errors: Record<string, string[]> } {
  const selections: SelectionInput[] = [];
  const fields: string[] = [];
  const errors: Record<string, string[]> = {};
  for (const choice of choices) {
    const raw = (values[choice.field] ?? '').trim();
    if (raw === '' || raw === '0') continue;
    if (!/^\d{1,7}$/.test(raw)) {
      errors[choice.field] = [QUANTITY_MESSAGE];
      continue;
    }
    const quantity = Number(raw);
    if (quantity === 0) continue;
    selections.push({ type: choice.type, id: choice.entity.id, quantity });
    fields.push(choice.field);
  }
  return { selections, fields, errors };
}

/** Puts itemized validation errors next to their fields; paths it cannot place go to the summary. */
export function placeErrors(form: FormState, errors: FieldError[], selectionFields: string[], fieldNames: readonly string[]): FormState {
  for (const { path, message } of errors) {
    const selection = /^selections\.(\d+)(?:\.|$)/.exec(path);
    const field = selection ? selectionFields[Number(selection[1])] : fieldNames.includes(path) ? path : undefined;
    if (field) (form.errors[field] ??= []).push(message);
    else form.summary.push(message);
  }
  return form;
}

export function hasErrors(form: FormState): boolean {
  return Object.keys(form.errors).length > 0 || form.summary.length > 0;
}
