import { QUESTION_TYPES, type QuestionView, type SignupStatus, type SignupView } from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { checkboxField, errorSummary, type FormView, inputField, selectField, textareaField } from './fields.js';
import {
  ACTIONS,
  canWrite,
  csrfField,
  dashboardPage,
  dataTable,
  nextPageLink,
  type Notice,
  postButton,
  timeZoneSelect,
  type Viewer,
  when,
} from './frame.js';

const STATUS_LABELS: Record<SignupStatus, string> = { draft: 'Draft', published: 'Published', closed: 'Closed' };

export const statusBadge = (status: SignupStatus): SafeHtml => html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;

/** "3 of 20" with a meter, or "3 registered" when the signup has no ceiling. */
export function fillText(signup: Pick<SignupView, 'participantCount' | 'maxParticipants'>): SafeHtml {
  if (!signup.maxParticipants) return html`${signup.participantCount} registered`;
  return html`<meter min="0" max="${signup.maxParticipants}" value="${signup.participantCount}">${signup.participantCount}</meter> ${
    signup.participantCount
  } of ${signup.maxParticipants}`;
}

export function signupsListPage(
  viewer: Viewer,
  signups: SignupView[],
  options: { status?: SignupStatus; nextCursor?: string | null; notice?: Notice },
): SafeHtml {
  const filters = html`<form method="get" action="/app/signups" class="toolbar">
<label for="status-filter">Status</label>
<select id="status-filter" name="status">
<option value="">All</option>
${(['draft', 'published', 'closed'] as const).map(
  (status) => html`<option value="${status}"${options.status === status ? html` selected` : ''}>${STATUS_LABELS[status]}</option>`,
)}
</select>
<button type="submit" class="button secondary">Filter</button>
</form>`;
  const rows = signups.map(
    (signup) => html`<tr>
<td><a href="/app/signups/${signup.id}">${signup.title}</a></td>
<td>${statusBadge(signup.status)}</td>
<td>${when(signup.eventDate, signup.timeZone)}</td>
<td>${fillText(signup)}</td>
</tr>`,
  );
  const table =
    signups.length === 0
      ? html`<p>No signups yet.${canWrite(viewer) ? html` <a href="/app/signups/new">Create your first one</a>.` : ''}</p>`
      : dataTable({
          label: 'Signups',
          caption: `Signups of ${viewer.organization.name}`,
          headers: ['Title', 'Status', 'Date', 'Registered'],
          body: html`${rows}`,
        });
  const next = nextPageLink('/app/signups', options.nextCursor, 'Next page', options.status ? { status: options.status } : {});
  return dashboardPage(
    viewer,
    'signups',
    'Signups',
    html`<div class="toolbar"><h1>Signups</h1>${
      canWrite(viewer)
        ? html`<a class="button" href="/app/signups/new">New signup</a> <a class="button secondary" href="/app/signups/draft">Draft from a sentence</a>`
        : ''
    }</div>
${filters}
${table}
${next}`,
    options.notice,
  );
}

/** The fields of the signup form, by name, with their labels (for the error summary). */
export const SIGNUP_FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  eventDate: 'Date and time',
  timeZone: 'Time zone',
  location: 'Location',
  maxParticipants: 'Most participants',
  signupCloseDate: 'Registrations close',
  reminderHoursBefore: 'Reminder, hours before',
  requiresPhone: 'Phone number required',
  waitlistEnabled: 'Waitlist',
  waitlistMode: 'Waitlist mode',
  waitlistOfferMinutes: 'Offer held for (minutes)',
  questions: 'Questions',
};

/** The form's values of a question row; `index` numbers the rows of the form. */
export const questionName = (index: number, part: 'id' | 'label' | 'type' | 'required' | 'options' | 'remove'): string =>
  `question-${index}-${part}`;

const QUESTION_TYPE_LABELS: Record<(typeof QUESTION_TYPES)[number], string> = {
  short_text: 'Short text',
  long_text: 'Long text',
  single_choice: 'One choice',
  multiple_choice: 'Several choices',
  yes_no: 'Yes or no',
  number: 'Number',
};

function questionRow(form: FormView, index: number, existing: boolean): SafeHtml {
  const name = (part: Parameters<typeof questionName>[1]) => questionName(index, part);
  return html`<fieldset>
<legend>${existing ? html`Question ${index + 1}` : 'Add a question'}</legend>
${existing ? html`<input type="hidden" name="${name('id')}" value="${form.values[name('id')] ?? ''}">` : ''}
${inputField(form, { name: name('label'), label: 'Question' })}
${selectField(form, { name: name('type'), label: 'Answer', choices: QUESTION_TYPES.map((type) => [type, QUESTION_TYPE_LABELS[type]]) })}
${textareaField(form, { name: name('options'), label: 'Choices', hint: 'One per line, for one or several choices.' })}
${checkboxField(form, { name: name('required'), label: 'An answer is required' })}
${existing ? checkboxField(form, { name: name('remove'), label: 'Remove this question' }) : ''}
</fieldset>`;
}

/** The fields every signup form starts with: title, description, date and time in a zone, location. */
export function signupBasics(form: FormView): SafeHtml {
  return html`${inputField(form, { name: 'title', label: 'Title', required: true })}
${textareaField(form, { name: 'description', label: 'Description' })}
<div class="grid-2">
${inputField(form, { name: 'eventDate', label: 'Date and time', type: 'datetime-local', required: true })}
<div class="field"><label for="timeZone">Time zone</label>${timeZoneSelect('timeZone', 'timeZone', form.values.timeZone ?? 'UTC')}</div>
</div>
${inputField(form, { name: 'location', label: 'Location' })}`;
}

/** The create and edit form; `etag` (editing) makes the save conditional, so another's change is never overwritten. */
export function signupFormPage(
  viewer: Viewer,
  form: FormView,
  options: { signup?: SignupView; questionCount: number; etag?: string; status?: number },
): SafeHtml {
  const { signup } = options;
  const action = signup ? `/app/signups/${signup.id}/edit` : '/app/signups';
  const title = signup ? `Edit ${signup.title}` : 'New signup';
  const questionRows = Array.from({ length: options.questionCount }, (_, index) => questionRow(form, index, true));
  return dashboardPage(
    viewer,
    'signups',
    title,
    html`<h1>${title}</h1>
${errorSummary(form, SIGNUP_FIELD_LABELS)}
<form method="post" action="${action}" class="stack" novalidate>
${csrfField(viewer)}
${options.etag ? html`<input type="hidden" name="etag" value="${options.etag}">` : ''}
${signupBasics(form)}
<div class="grid-2">
${inputField(form, { name: 'maxParticipants', label: 'Most participants', type: 'number', min: 1, hint: 'Leave empty for no limit.' })}
${inputField(form, { name: 'signupCloseDate', label: 'Registrations close', type: 'datetime-local', hint: 'Leave empty to take them until the event.' })}
</div>
${inputField(form, { name: 'reminderHoursBefore', label: 'Reminder, hours before', type: 'number', min: 1, hint: 'When the automatic reminder goes out.' })}
${checkboxField(form, { name: 'requiresPhone', label: 'Phone number required' })}
<fieldset>
<legend>Waitlist</legend>
${checkboxField(form, { name: 'waitlistEnabled', label: 'Take names when full' })}
${selectField(form, {
  name: 'waitlistMode',
  label: 'When a place frees up',
  choices: [
    ['auto', 'Give it to the next in line at once'],
    ['offer', 'Offer it to the next in line'],
  ],
})}
${inputField(form, { name: 'waitlistOfferMinutes', label: 'Offer held for (minutes)', type: 'number', min: 1 })}
</fieldset>
<fieldset>
<legend>Questions asked on registration</legend>
${questionRows}
${questionRow(form, options.questionCount, false)}
</fieldset>
<p><button type="submit" class="button">${signup ? 'Save changes' : 'Create signup'}</button> <a href="${
      signup ? `/app/signups/${signup.id}` : '/app/signups'
    }">Cancel</a></p>
</form>`,
  );
}

/** Edit and Remove of a slot or item (at `path`), named for screen readers. */
function rowActions(viewer: Viewer, path: string, name: string): SafeHtml {
  return html`<div class="toolbar"><a class="button secondary" href="${path}/edit">Edit<span class="visually-hidden"> ${name}</span></a>${postButton(
    viewer,
    `${path}/delete`,
    html`Remove<span class="visually-hidden"> ${name}</span>`,
    'danger',
  )}</div>`;
}

/** The form of one slot (`kind` slot) or item, its fields named as the REST API's; the signup's ETag makes the save conditional. */
/**
 * The form of one slot or item: editing the one of `edit.id` (the signup's ETag sent back), or
 * adding one when `edit` is absent (shown again with its errors when the add forms of the signup's
 * page were refused).
 */
export function choiceFormPage(
  viewer: Viewer,
  signup: SignupView,
  kind: 'slot' | 'item',
  form: FormView,
  edit?: { id: string; etag: string },
): SafeHtml {
  const title = edit
    ? kind === 'slot'
      ? `Edit the slot ${form.values.title ?? ''}`
      : `Edit the item ${form.values.name ?? ''}`
    : kind === 'slot'
      ? 'Add a slot'
      : 'Add an item';
  const fields =
    kind === 'slot'
      ? html`${inputField(form, { name: 'title', label: 'Slot', required: true })}
${textareaField(form, { name: 'description', label: 'Description' })}
<div class="grid-2">
${inputField(form, { name: 'startTime', label: 'Starts', type: 'datetime-local', hint: `In ${signup.timeZone}.` })}
${inputField(form, { name: 'endTime', label: 'Ends', type: 'datetime-local' })}
</div>
${inputField(form, { name: 'capacity', label: 'Places', type: 'number', min: 1, required: true })}`
      : html`${inputField(form, { name: 'name', label: 'Item', required: true })}
${textareaField(form, { name: 'notes', label: 'Notes' })}
${inputField(form, { name: 'quantityNeeded', label: 'How many', type: 'number', min: 1, required: true })}`;
  return dashboardPage(
    viewer,
    'signups',
    title,
    html`<p><a href="/app/signups/${signup.id}">${signup.title}</a></p>
<h1>${title}</h1>
${errorSummary(form, CHOICE_FIELD_LABELS)}
<form method="post" action="/app/signups/${signup.id}/${kind}s${edit ? `/${edit.id}/edit` : ''}" class="stack" novalidate>
${csrfField(viewer)}
${edit ? html`<input type="hidden" name="etag" value="${edit.etag}">` : ''}
${fields}
<p><button type="submit" class="button">${edit ? 'Save' : kind === 'slot' ? 'Add slot' : 'Add item'}</button> <a href="/app/signups/${signup.id}">Cancel</a></p>
</form>`,
  );
}

export const CHOICE_FIELD_LABELS: Record<string, string> = {
  title: 'Slot',
  description: 'Description',
  startTime: 'Starts',
  endTime: 'Ends',
  capacity: 'Places',
  name: 'Item',
  notes: 'Notes',
  quantityNeeded: 'How many',
};

function slotsSection(viewer: Viewer, signup: SignupView): SafeHtml {
  const slots = signup.slots ?? [];
  const items = signup.items ?? [];
  const write = canWrite(viewer);
  const base = `/app/signups/${signup.id}`;
  const slotRows = slots.map(
    (slot) =>
      html`<tr><td>${slot.title}</td><td>${slot.startTime ? when(slot.startTime, signup.timeZone) : '—'}</td><td>${slot.taken} of ${
        slot.capacity
      }</td><td>${write ? rowActions(viewer, `${base}/slots/${slot.id}`, slot.title) : ''}</td></tr>`,
  );
  const itemRows = items.map(
    (item) =>
      html`<tr><td>${item.name}</td><td>${item.quantityClaimed} of ${item.quantityNeeded}</td><td>${
        write ? rowActions(viewer, `${base}/items/${item.id}`, item.name) : ''
      }</td></tr>`,
  );
  return html`<section aria-labelledby="slots-heading">
<h2 id="slots-heading">Time slots</h2>
${
  slots.length
    ? dataTable({ label: 'Table of time slots', headers: ['Slot', 'Starts', 'Taken', ACTIONS], body: html`${slotRows}` })
    : html`<p>No time slots.</p>`
}
${
  write
    ? html`<form method="post" action="${base}/slots" class="toolbar">
${csrfField(viewer)}
<div class="field"><label for="slot-title">Slot</label><input id="slot-title" name="title" required></div>
<div class="field"><label for="slot-start">Starts</label><input id="slot-start" name="startTime" type="datetime-local"></div>
<div class="field"><label for="slot-end">Ends</label><input id="slot-end" name="endTime" type="datetime-local"></div>
<div class="field"><label for="slot-capacity">Places</label><input id="slot-capacity" name="capacity" type="number" min="1" value="1" required></div>
<button type="submit" class="button secondary">Add slot</button>
</form>`
    : ''
}
</section>
<section aria-labelledby="items-heading">
<h2 id="items-heading">Items to bring</h2>
${
  items.length
    ? dataTable({ label: 'Table of items', headers: ['Item', 'Claimed', ACTIONS], body: html`${itemRows}` })
    : html`<p>No items.</p>`
}
${
  write
    ? html`<form method="post" action="${base}/items" class="toolbar">
${csrfField(viewer)}
<div class="field"><label for="item-name">Item</label><input id="item-name" name="name" required></div>
<div class="field"><label for="item-quantity">How many</label><input id="item-quantity" name="quantityNeeded" type="number" min="1" value="1" required></div>
<button type="submit" class="button secondary">Add item</button>
</form>`
    : ''
}
</section>`;
}

function actions(viewer: Viewer, signup: SignupView): SafeHtml {
  if (!canWrite(viewer)) return html``;
  const base = `/app/signups/${signup.id}`;
  return html`<div class="toolbar">
<a class="button secondary" href="${base}/edit">Edit</a>
${signup.status === 'draft' ? postButton(viewer, `${base}/publish`, 'Publish') : ''}
${signup.status === 'published' ? postButton(viewer, `${base}/close`, 'Close registrations', 'secondary') : ''}
<a class="button secondary" href="${base}/duplicate">Duplicate</a>
<a class="button danger" href="${base}/delete">Delete</a>
</div>`;
}

function shareSection(signup: SignupView): SafeHtml {
  if (signup.status === 'draft')
    return html`<section aria-labelledby="share-heading"><h2 id="share-heading">Share</h2><p>Publish the signup to share its link.</p></section>`;
  const base = `/app/signups/${signup.id}`;
  return html`<section aria-labelledby="share-heading">
<h2 id="share-heading">Share</h2>
<div class="field">
<label for="public-link">Public link</label>
<input id="public-link" readonly value="${signup.publicUrl}" data-copy>
</div>
<p><a href="${signup.publicUrl}">Open the public page</a></p>
<img src="${base}/qr.svg" alt="QR code of the public link" width="160" height="160">
<p><a href="${base}/qr.svg" download="signup-qr.svg">QR code (SVG)</a> · <a href="${base}/qr.png" download="signup-qr.png">QR code (PNG, for print)</a></p>
</section>`;
}

export function questionsList(questions: QuestionView[]): SafeHtml {
  if (questions.length === 0) return html`<p>No questions.</p>`;
  return html`<ol>${questions.map((q) => html`<li>${q.label}${q.required ? ' (required)' : ''}</li>`)}</ol>`;
}

export function signupPage(viewer: Viewer, signup: SignupView, notice?: Notice): SafeHtml {
  const base = `/app/signups/${signup.id}`;
  return dashboardPage(
    viewer,
    'signups',
    signup.title,
    html`<p><a href="/app/signups">Signups</a></p>
<h1>${signup.title} ${statusBadge(signup.status)}</h1>
<p class="meta">${when(signup.eventDate, signup.timeZone)}${signup.location ? html` · ${signup.location}` : ''}</p>
<p>${fillText(signup)}</p>
<nav aria-label="This signup" class="toolbar">
<a class="button" href="${base}/participants">Participants</a>
<a class="button secondary" href="${base}/check-in">Check-in</a>
<a class="button secondary" href="${base}/analytics">Numbers</a>
<a class="button secondary" href="${base}/reminders">Reminders</a>
</nav>
${actions(viewer, signup)}
${shareSection(signup)}
${slotsSection(viewer, signup)}
<section aria-labelledby="questions-heading"><h2 id="questions-heading">Questions</h2>${questionsList(signup.questions)}</section>`,
    notice,
  );
}

/** The duplicate form: one new date, or copies every day, week or month after the signup's own date (slots move with them). */
export function duplicatePage(viewer: Viewer, signup: SignupView, form: FormView): SafeHtml {
  return dashboardPage(
    viewer,
    'signups',
    `Duplicate ${signup.title}`,
    html`<h1>Duplicate ${signup.title}</h1>
<p>Each copy keeps the slots, items and questions, moved to its date, and starts as a draft.</p>
${errorSummary(form, DUPLICATE_FIELD_LABELS)}
<form method="post" action="/app/signups/${signup.id}/duplicate" class="stack">
${csrfField(viewer)}
${selectField(form, {
  name: 'frequency',
  label: 'Copies',
  choices: [
    ['once', 'One copy, on the date below'],
    ['daily', 'Every day after this one'],
    ['weekly', 'Every week after this one'],
    ['monthly', 'Every month after this one'],
  ],
})}
${inputField(form, { name: 'eventDate', label: 'New date and time', type: 'datetime-local', hint: `For one copy, in ${signup.timeZone}.` })}
${inputField(form, { name: 'count', label: 'How many copies', type: 'number', min: 1, max: 52, hint: 'For copies every day, week or month.' })}
<p><button type="submit" class="button">Duplicate</button> <a href="/app/signups/${signup.id}">Cancel</a></p>
</form>`,
  );
}

export const DUPLICATE_FIELD_LABELS: Record<string, string> = {
  eventDate: 'New date and time',
  count: 'How many copies',
  recurrence: 'Copies',
};
