import { formatDateTime, PARTICIPANT_STATUSES, type ParticipantStatus, type ParticipantView, type SignupView } from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { answerText, questionField } from '../../pages/page-answers.js';
import { type FormState, quantityField, waitsForSignup } from '../../pages/page-form.js';
import { questionFieldset } from '../../pages/question-fields.js';
import { errorSummary, inputField } from './fields.js';
import { ACTIONS, canWrite, csrfField, dashboardPage, dataTable, type Notice, postButton, type Viewer, when } from './frame.js';

export const STATUS_LABELS: Record<ParticipantStatus, string> = {
  confirmed: 'Confirmed',
  waitlisted: 'Waitlisted',
  offered: 'Offered a place',
  cancelled: 'Cancelled',
  attended: 'Checked in',
  no_show: 'No-show',
};

const BADGES: Record<ParticipantStatus, string> = {
  confirmed: 'badge-published',
  waitlisted: 'badge-waitlisted',
  offered: 'badge-waitlisted',
  cancelled: 'badge-closed',
  attended: 'badge-checked-in',
  no_show: 'badge-closed',
};

export const participantBadge = (status: ParticipantStatus): SafeHtml =>
  html`<span class="badge ${BADGES[status]}">${STATUS_LABELS[status]}</span>`;

/** The names of a signup's slots and items, by id. */
export function labelsOf(signup: SignupView): Map<string, string> {
  return new Map([
    ...(signup.slots ?? []).map((s) => [s.id, s.title] as const),
    ...(signup.items ?? []).map((i) => [i.id, i.name] as const),
  ]);
}

function selectionsText(participant: ParticipantView, labels: Map<string, string>): SafeHtml {
  if (participant.selections.length === 0) return html`—`;
  return html`<ul class="plain">${participant.selections.map(
    (s) => html`<li>${labels.get(s.id) ?? s.type}${s.quantity > 1 ? ` × ${s.quantity}` : ''}</li>`,
  )}</ul>`;
}

function answersText(participant: ParticipantView, signup: SignupView): SafeHtml {
  const answered = signup.questions.filter((q) => participant.answers[q.id] !== undefined);
  if (answered.length === 0) return html`—`;
  return html`<dl class="answers">${answered.map((q) => html`<dt>${q.label}</dt><dd>${answerText(participant.answers[q.id]!)}</dd>`)}</dl>`;
}

function waitlistText(viewer: Viewer, signup: SignupView, participant: ParticipantView, labels: Map<string, string>): SafeHtml {
  const open = participant.waitlist.filter((e) => e.state === 'waiting' || e.state === 'offered');
  if (open.length === 0) return html``;
  return html`<ul class="plain">${open.map(
    (entry) =>
      html`<li>In line for ${labels.get(entry.targetId) ?? 'the signup'}${entry.position ? `, #${entry.position}` : ', offered'}${
        canWrite(viewer)
          ? html` ${postButton(viewer, `/app/signups/${signup.id}/waitlist/${entry.id}/promote`, html`Promote<span class="visually-hidden"> ${participant.name}</span>`, 'secondary')}`
          : ''
      }</li>`,
  )}</ul>`;
}

export interface ParticipantFilters {
  q: string;
  status?: ParticipantStatus;
}

/** Whether a participant matches the search (name, email or phone, any case) and the status. */
export function matches(participant: ParticipantView, filters: ParticipantFilters): boolean {
  if (filters.status && participant.status !== filters.status) return false;
  const q = filters.q.trim().toLocaleLowerCase();
  return !q || [participant.name, participant.email, participant.phone ?? ''].some((text) => text.toLocaleLowerCase().includes(q));
}

function filtersForm(filters: ParticipantFilters, action: string): SafeHtml {
  return html`<form method="get" action="${action}" class="toolbar" role="search">
<div class="field"><label for="q">Search</label><input id="q" name="q" type="search" value="${filters.q}" autocomplete="off"></div>
<div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">All</option>${PARTICIPANT_STATUSES.map(
    (s) => html`<option value="${s}"${filters.status === s ? html` selected` : ''}>${STATUS_LABELS[s]}</option>`,
  )}</select></div>
<button type="submit" class="button secondary">Search</button>
</form>`;
}

/** The table body, also what the live update replaces. */
export function participantRows(viewer: Viewer, signup: SignupView, participants: ParticipantView[]): SafeHtml {
  const labels = labelsOf(signup);
  const base = `/app/signups/${signup.id}/participants`;
  if (participants.length === 0) return html`<tr><td colspan="6">Nobody yet.</td></tr>`;
  return html`${participants.map(
    (p) => html`<tr id="participant-${p.id}">
<th scope="row">${p.name}<br><span class="muted">${p.email}${p.phone ? html`<br>${p.phone}` : ''}</span></th>
<td>${participantBadge(p.status)}${waitlistText(viewer, signup, p, labels)}</td>
<td>${selectionsText(p, labels)}</td>
<td>${answersText(p, signup)}</td>
<td>${when(p.createdAt, signup.timeZone)}</td>
<td>${
      canWrite(viewer) && p.status !== 'cancelled'
        ? html`<div class="toolbar"><a class="button secondary" href="${base}/${p.id}/edit">Edit<span class="visually-hidden"> ${p.name}</span></a><a class="button danger" href="${base}/${p.id}/delete">Remove<span class="visually-hidden"> ${p.name}</span></a></div>`
        : ''
    }</td>
</tr>`,
  )}`;
}

export function participantsPage(
  viewer: Viewer,
  signup: SignupView,
  participants: ParticipantView[],
  options: { filters: ParticipantFilters; total: number; truncated: boolean; notice?: Notice },
): SafeHtml {
  const base = `/app/signups/${signup.id}`;
  return dashboardPage(
    viewer,
    'signups',
    `Participants of ${signup.title}`,
    html`<p><a href="${base}">${signup.title}</a></p>
<h1>Participants</h1>
<div class="toolbar">
<a class="button secondary" href="${base}/participants/export.csv" download>Export CSV</a>
<a class="button secondary" href="${base}/check-in">Check-in</a>
</div>
${filtersForm(options.filters, `${base}/participants`)}
<p role="status" id="participants-count">${participants.length} of ${options.total} shown${options.truncated ? ' (the first ones only: export the CSV for all)' : ''}.</p>
${dataTable({
  label: 'Participants',
  headers: ['Name', 'Status', 'Signed up for', 'Answers', 'Registered', ACTIONS],
  body: participantRows(viewer, signup, participants),
  tbody: html` id="participants-rows" data-live="${base}/participants/rows?${new URLSearchParams({ q: options.filters.q, status: options.filters.status ?? '' }).toString()}"`,
})}`,
    options.notice,
  );
}

/** The participant form's fields of a signup's slots and items, and their questions' labels, for the error summary. */
function participantFieldLabels(signup: SignupView): Record<string, string> {
  return {
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    ...Object.fromEntries((signup.slots ?? []).map((slot) => [quantityField('slot', slot.id), slot.title])),
    ...Object.fromEntries((signup.items ?? []).map((item) => [quantityField('item', item.id), item.name])),
    ...Object.fromEntries(signup.questions.map((question) => [questionField(question), question.label])),
  };
}

/** How many of a slot or item the participant may hold: what is free, and what they hold already. */
function quantityFields(form: FormState, signup: SignupView): SafeHtml {
  const slots = (signup.slots ?? []).map((slot) =>
    inputField(form, {
      name: quantityField('slot', slot.id),
      label: slot.title,
      type: 'number',
      min: 0,
      hint: `${slot.taken} of ${slot.capacity} taken${slot.startTime ? `, from ${formatDateTime(slot.startTime, signup.timeZone)}` : ''}.`,
    }),
  );
  const items = (signup.items ?? []).map((item) =>
    inputField(form, {
      name: quantityField('item', item.id),
      label: item.name,
      type: 'number',
      min: 0,
      hint: `${item.quantityClaimed} of ${item.quantityNeeded} claimed.`,
    }),
  );
  return html`${slots.length ? html`<fieldset><legend>Time slots</legend>${slots}</fieldset>` : ''}${
    items.length ? html`<fieldset><legend>Things to bring</legend>${items}</fieldset>` : ''
  }`;
}

/**
 * Edits a participant as the organizer: contact details, what they hold of each slot and item
 * (not while they wait for a place in the signup itself, as on their own page) and their answers.
 */
export function participantFormPage(
  viewer: Viewer,
  signup: SignupView,
  participant: ParticipantView,
  form: FormState,
  etag: string,
): SafeHtml {
  const base = `/app/signups/${signup.id}/participants`;
  return dashboardPage(
    viewer,
    'signups',
    `Edit ${participant.name}`,
    html`<p><a href="${base}">Participants of ${signup.title}</a></p>
<h1>Edit ${participant.name}</h1>
${
  participant.status === 'cancelled'
    ? html`<p class="notice" role="note">${participant.name} cancelled: their registration cannot be changed.</p>`
    : html`${errorSummary(form, participantFieldLabels(signup))}
${form.summary.length ? html`<p class="notice error" role="alert">${form.summary.join(' ')}</p>` : ''}
<form method="post" action="${base}/${participant.id}/edit" class="stack" novalidate>
${csrfField(viewer)}
<input type="hidden" name="etag" value="${etag}">
${inputField(form, { name: 'name', label: 'Name', required: true })}
${inputField(form, { name: 'email', label: 'Email', type: 'email', required: true })}
${inputField(form, { name: 'phone', label: 'Phone' })}
<h2>Signed up for</h2>
${waitsForSignup(participant) ? html`<p>Waiting for a place in the signup: promote them from the list to give them one.</p>` : quantityFields(form, signup)}
${questionFieldset(form, signup.questions)}
<p><button type="submit" class="button">Save</button> <a href="${base}">Cancel</a></p>
</form>`
}`,
  );
}

const CHECKABLE: ReadonlySet<ParticipantStatus> = new Set(['confirmed', 'attended', 'no_show']);

/** The check-in list for the day: big buttons, one column, usable on a phone. */
export function checkInPage(viewer: Viewer, signup: SignupView, participants: ParticipantView[], q: string, notice?: Notice): SafeHtml {
  const base = `/app/signups/${signup.id}/check-in`;
  const present = participants.filter((p) => CHECKABLE.has(p.status));
  const checkedIn = present.filter((p) => p.status === 'attended').length;
  const rows = present.map(
    (p) => html`<li id="checkin-${p.id}">
<span><strong>${p.name}</strong> ${participantBadge(p.status)}</span>
${
  p.status === 'attended'
    ? postButton(viewer, `${base}/${p.id}/undo`, html`Undo check-in<span class="visually-hidden"> of ${p.name}</span>`, 'secondary')
    : postButton(viewer, `${base}/${p.id}`, html`Check in<span class="visually-hidden"> ${p.name}</span>`)
}
</li>`,
  );
  return dashboardPage(
    viewer,
    'signups',
    `Check-in: ${signup.title}`,
    html`<p><a href="/app/signups/${signup.id}">${signup.title}</a></p>
<h1>Check-in</h1>
<p role="status">${checkedIn} of ${present.length} checked in.</p>
<form method="get" action="${base}" role="search" class="toolbar">
<div class="field"><label for="q">Find a name</label><input id="q" name="q" type="search" value="${q}" autocomplete="off"></div>
<button type="submit" class="button secondary">Find</button>
</form>
${rows.length ? html`<ul class="checkin-list">${rows}</ul>` : html`<p>Nobody to check in${q ? ' by that name' : ''}.</p>`}`,
    notice,
  );
}
