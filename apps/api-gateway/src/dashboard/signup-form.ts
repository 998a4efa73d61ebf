import { DEFAULT_TIME_ZONE, type SignupView } from '#libs/contracts';
import type { FieldError } from '#libs/problem';
import type { FormView } from './views/fields.js';
import { questionName } from './views/signups.js';
import { instantFromLocal, localInputValue } from './wall-time.js';

/** A form's integer as the API takes it; anything else goes as entered, for the API to say what is wrong. */
const integer = (value: string): number | string => (/^-?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value);
/** A form's date and time in the zone, as an instant; a value that is none goes as entered. */
const instant = (value: string, timeZone: string): string => instantFromLocal(value, timeZone) ?? value;
const checked = (value: string | undefined): boolean => value === 'on';

/** The form's values of a signup, for editing it. */
export function signupFormValues(signup: SignupView): Record<string, string> {
  const values: Record<string, string> = {
    title: signup.title,
    description: signup.description ?? '',
    eventDate: localInputValue(signup.eventDate, signup.timeZone),
    timeZone: signup.timeZone,
    location: signup.location ?? '',
    maxParticipants: signup.maxParticipants?.toString() ?? '',
    signupCloseDate: localInputValue(signup.signupCloseDate, signup.timeZone),
    reminderHoursBefore: String(signup.reminderHoursBefore),
    requiresPhone: signup.requiresPhone ? 'on' : '',
    waitlistEnabled: signup.waitlist.enabled ? 'on' : '',
    waitlistMode: signup.waitlist.mode,
    waitlistOfferMinutes: String(signup.waitlist.offerMinutes),
  };
  signup.questions.forEach((question, index) => {
    values[questionName(index, 'id')] = question.id;
    values[questionName(index, 'label')] = question.label;
    values[questionName(index, 'type')] = question.type;
    values[questionName(index, 'options')] = (question.options ?? []).join('\n');
    values[questionName(index, 'required')] = question.required ? 'on' : '';
  });
  return values;
}

/** A new signup's form: tomorrow evening in the organization's zone, the usual waitlist settings. */
export function newSignupFormValues(timeZone: string | undefined): Record<string, string> {
  return { timeZone: timeZone ?? DEFAULT_TIME_ZONE, reminderHoursBefore: '24', waitlistMode: 'auto', waitlistOfferMinutes: '60' };
}

/** How many question rows the form holds (the existing ones; a last, empty row adds one). */
export function questionRowsOf(values: Record<string, string>): number {
  let rows = 0;
  while (values[questionName(rows, 'id')] !== undefined) rows++;
  return rows;
}

export interface SignupRequest {
  input: Record<string, unknown>;
  /** The form row of each question sent, by its place in the list (to put the API's errors beside their row). */
  questionRows: number[];
}

/**
 * The REST API's body for the form. On an edit every field is sent, emptied ones as null (the
 * PATCH clears them); on a create, empty ones are left out.
 */
export function signupRequest(values: Record<string, string>, editing: boolean): SignupRequest {
  const timeZone = values.timeZone || DEFAULT_TIME_ZONE;
  const optional = (value: string | undefined, convert: (v: string) => unknown): unknown =>
    value ? convert(value) : editing ? null : undefined;
  const input: Record<string, unknown> = {
    title: values.title ?? '',
    description: optional(values.description, (v) => v),
    eventDate: values.eventDate ? instant(values.eventDate, timeZone) : undefined,
    timeZone,
    location: optional(values.location, (v) => v),
    maxParticipants: optional(values.maxParticipants, integer),
    signupCloseDate: optional(values.signupCloseDate, (v) => instant(v, timeZone)),
    reminderHoursBefore: values.reminderHoursBefore ? integer(values.reminderHoursBefore) : undefined,
    requiresPhone: checked(values.requiresPhone),
    waitlist: {
      enabled: checked(values.waitlistEnabled),
      mode: values.waitlistMode || 'auto',
      ...(values.waitlistOfferMinutes && { offerMinutes: integer(values.waitlistOfferMinutes) }),
    },
  };
  const questions: Record<string, unknown>[] = [];
  const questionRows: number[] = [];
  const rows = questionRowsOf(values);
  for (let index = 0; index <= rows; index++) {
    const field = (part: Parameters<typeof questionName>[1]) => values[questionName(index, part)] ?? '';
    if (checked(field('remove')) || (index === rows && !field('label'))) continue;
    const options = field('options')
      .split('\n')
      .map((option) => option.trim())
      .filter(Boolean);
    questions.push({
      ...(field('id') && { id: field('id') }),
      label: field('label'),
      type: field('type') || 'short_text',
      required: checked(field('required')),
      ...(options.length > 0 && { options }),
    });
    questionRows.push(index);
  }
  if (editing || questions.length > 0) input.questions = questions;
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return { input, questionRows };
}

const FIELD_OF_PATH: Record<string, string> = {
  'waitlist.enabled': 'waitlistEnabled',
  'waitlist.mode': 'waitlistMode',
  'waitlist.offerMinutes': 'waitlistOfferMinutes',
  waitlist: 'waitlistEnabled',
};

/** The API's field errors beside the form's fields; an error of no field goes on `fallback`. */
export function placeFieldErrors(
  values: Record<string, string>,
  errors: FieldError[] | undefined,
  questionRows: number[] = [],
  fallback = 'title',
): FormView {
  const placed: Record<string, string[]> = {};
  for (const error of errors ?? []) {
    const question = /^questions\.(\d+)(?:\.(\w+))?/.exec(error.path);
    let field: string;
    if (question) {
      const row = questionRows[Number(question[1])] ?? 0;
      const part = question[2] === 'options' || question[2] === 'type' || question[2] === 'required' ? question[2] : 'label';
      field = questionName(row, part);
    } else {
      const path = error.path.replace(/^body\.?/, '');
      field = FIELD_OF_PATH[path] ?? (path in values || path in SIGNUP_INPUT_FIELDS ? path : fallback);
    }
    (placed[field] ??= []).push(error.message);
  }
  return { values, errors: placed };
}

const SIGNUP_INPUT_FIELDS: Record<string, true> = {
  title: true,
  description: true,
  eventDate: true,
  timeZone: true,
  location: true,
  maxParticipants: true,
  signupCloseDate: true,
  reminderHoursBefore: true,
  requiresPhone: true,
};

/** Which list a path segment names: `slots` or `items`. */
export function kindOf(segment: string): 'slot' | 'item' | undefined {
  return segment === 'slots' ? 'slot' : segment === 'items' ? 'item' : undefined;
}

/** The form's values of one slot or item of the signup; undefined when it has none of that id. */
export function choiceValues(signup: SignupView, kind: 'slot' | 'item', id: string): Record<string, string> | undefined {
  if (kind === 'slot') {
    const slot = signup.slots?.find((s) => s.id === id);
    return (
      slot && {
        title: slot.title,
        description: slot.description ?? '',
        startTime: localInputValue(slot.startTime, signup.timeZone),
        endTime: localInputValue(slot.endTime, signup.timeZone),
        capacity: String(slot.capacity),
      }
    );
  }
  const item = signup.items?.find((i) => i.id === id);
  return item && { name: item.name, notes: item.notes ?? '', quantityNeeded: String(item.quantityNeeded) };
}

/** The PATCH body of a slot or item form: emptied optional fields cleared (null). */
export function choiceRequest(kind: 'slot' | 'item', values: Record<string, string>, timeZone: string): Record<string, unknown> {
  const optional = (value: string | undefined, convert: (v: string) => unknown = (v) => v): unknown => (value ? convert(value) : null);
  if (kind === 'slot') {
    return {
      title: values.title ?? '',
      description: optional(values.description),
      startTime: optional(values.startTime, (v) => instant(v, timeZone)),
      endTime: optional(values.endTime, (v) => instant(v, timeZone)),
      capacity: integer(values.capacity ?? ''),
    };
  }
  return { name: values.name ?? '', notes: optional(values.notes), quantityNeeded: integer(values.quantityNeeded ?? '') };
}
