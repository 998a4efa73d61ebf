import type { ItemView, ParticipantView, SelectionInput, SelectionType, SlotView } from '#libs/contracts';
import type { FieldError } from '#libs/problem';

/** What a page form holds: the entered values and the messages, by field name. */
export interface FormState {
  values: Record<string, string>;
  /** The boxes checked of each multiple-choice question, by field name. */
  checked: Record<string, string[]>;
  errors: Record<string, string[]>;
  /** Problems not tied to one field (e.g. a selection that could not be had). */
  summary: string[];
}

export const emptyForm = (values: Record<string, string> = {}, checked: Record<string, string[]> = {}): FormState => ({
  values,
  checked,
  errors: {},
  summary: [],
});

/** The form field of a slot's or item's quantity, e.g. `slot-0190…`. */
export const quantityField = (type: SelectionType, id: string): string => `${type}-${id}`;

export interface Choice {
  type: SelectionType;
  field: string;
  label: string;
  entity: SlotView | ItemView;
}

/** Every slot, then every item, of a signup, as form choices. */
export function choicesOf(signup: { slots: SlotView[]; items: ItemView[] }): Choice[] {
  return [
    ...signup.slots.map((slot): Choice => ({ type: 'slot', field: quantityField('slot', slot.id), label: slot.title, entity: slot })),
    ...signup.items.map((item): Choice => ({ type: 'item', field: quantityField('item', item.id), label: item.name, entity: item })),
  ];
}

/**
 * Longer than any field of the pages (a name of 200, an email of 320): a value that is longer once
 * trimmed is refused whatever it holds, so it is cut here, and no check or page sees more of it.
 */
export const FORM_VALUE_MAX_LENGTH = 1000;

/**
 * A urlencoded body as single string values (the first of repeated keys, a long one trimmed and cut
 * at `maxLengthOf` its key; anything else dropped).
 */
export function readForm(body: unknown, maxLengthOf: (key: string) => number = () => FORM_VALUE_MAX_LENGTH): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? (value as unknown[])[0] : value;
    const max = maxLengthOf(key);
    if (typeof first === 'string') values[key] = first.length > max ? first.trim().slice(0, max) : first;
  }
  return values;
}

export const QUANTITY_MESSAGE = 'Enter a whole number, 0 or more';

/**
 * Quantities above 0 become selections, in the order of the choices. `fields[i]` is the form
 * field of `selections[i]`, to put the service's messages (selections.i.quantity) next to it.
 */
export function readSelections(
  choices: Choice[],
  values: Record<string, string>,
): { selections: SelectionInput[]; fields: string[]; errors: Record<string, string[]> } {
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

/**
 * Puts itemized validation errors next to their fields (an answer's, `answers.<questionId>`, next to
 * its question `q-<questionId>`); paths it cannot place go to the summary.
 */
export function placeErrors(form: FormState, errors: FieldError[], selectionFields: string[], fieldNames: readonly string[]): FormState {
  for (const { path, message } of errors) {
    const selection = /^selections\.(\d+)(?:\.|$)/.exec(path);
    const answer = /^answers\.([0-9a-f-]{36})$/.exec(path);
    const field = selection
      ? selectionFields[Number(selection[1])]
      : answer && fieldNames.includes(`q-${answer[1]}`)
        ? `q-${answer[1]}`
        : fieldNames.includes(path)
          ? path
          : undefined;
    if (field) (form.errors[field] ??= []).push(message);
    else form.summary.push(message);
  }
  return form;
}

export function hasErrors(form: FormState): boolean {
  return Object.keys(form.errors).length > 0 || form.summary.length > 0;
}

/** A selection asked for at registration that could not be had: nothing of it is held. */
export interface FailedRequest {
  type: SelectionType;
  id: string;
  /** Its form field, e.g. `slot-0190…`. */
  field: string;
  quantity: number;
}

const FAILED_PATTERN = /^(slot|item)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\d{1,7})$/;
/** More failures than any signup has slots and items are not read. */
const MAX_FAILED = 200;

/**
 * Where POST /s/{slug} sends the browser once a participant is stored (Post/Redirect/Get): the
 * manage page of the new registration, with `registered=1` and what failed (`failed=slot-<id>:<quantity>`,
 * ids only: the page words it from the signup as it is).
 */
export function registeredLocation(token: string, failed: Omit<FailedRequest, 'field'>[]): string {
  const query = new URLSearchParams([
    ['registered', '1'],
    ...failed.map((f): [string, string] => ['failed', `${f.type}-${f.id.toLowerCase()}:${f.quantity}`]),
  ]);
  return `/r/${token}?${query.toString()}`;
}

/** Where POST /r/{token} sends the browser once the change is saved. */
export const savedLocation = (token: string): string => `/r/${token}?saved=1`;

/** What GET /r/{token} was sent to show once: `registered` with its failures, or `saved`. Anything malformed is ignored. */
export function readOutcome(query: unknown): { registered: boolean; saved: boolean; failed: FailedRequest[] } {
  const values = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const list = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  const registered = list(values.registered).includes('1');
  const failed: FailedRequest[] = [];
  if (registered) {
    for (const raw of list(values.failed).slice(0, MAX_FAILED)) {
      const match = FAILED_PATTERN.exec(raw);
      if (!match) continue;
      const [, type, id, quantity] = match as unknown as [string, SelectionType, string, string];
      const field = quantityField(type, id);
      if (Number(quantity) > 0 && !failed.some((f) => f.field === field)) failed.push({ type, id, field, quantity: Number(quantity) });
    }
  }
  return { registered, saved: list(values.saved).includes('1'), failed };
}

/** A registration in the signup's own line holds no place yet: its selections cannot change until it has one. */
export const waitsForSignup = (participant: ParticipantView): boolean => participant.waitlist.some((entry) => entry.type === 'signup');

/** What a participant does with a line of theirs: accept its offer, or leave it (declining an offer). */
export const WAITLIST_MOVES = ['accept', 'leave'] as const;
export type WaitlistMove = (typeof WAITLIST_MOVES)[number];

/** Where POST /r/{token}/waitlist/{entryId}/{move} sends the browser once done: `waitlist=accept` or `waitlist=leave`. */
export const movedLocation = (token: string, move: WaitlistMove): string => `/r/${token}?waitlist=${move}`;

/** The move GET /r/{token} was sent to confirm once, or undefined (anything else is ignored). */
export function readMove(query: unknown): WaitlistMove | undefined {
  const value = typeof query === 'object' && query !== null ? (query as Record<string, unknown>).waitlist : undefined;
  return WAITLIST_MOVES.find((move) => move === value);
}
