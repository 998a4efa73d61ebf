import { type CalendarEvent, googleCalendarLink, outlookCalendarLink } from '#libs/calendar';
import {
  formatDateTime,
  formatTimeRange,
  type ItemView,
  type ParticipantStatus,
  type ParticipantView,
  type PublicSignupView,
  type QuestionView,
  type RegistrationView,
  type SlotView,
  type WaitlistEntryView,
} from '#libs/contracts';
import { html, layout, type SafeHtml } from '#libs/web';
import { answerText, answerValues, questionField } from './page-answers.js';
import { type Choice, choicesOf, emptyForm, type FailedRequest, type FormState, quantityField, waitsForSignup } from './page-form.js';
import { questionFieldset } from './question-fields.js';

/** An instant in the signup's time zone, "Tue, Jun 1, 2027, 6:00 PM EDT"; the machine-readable form stays ISO. */
const when = (iso: string, timeZone: string): SafeHtml => html`<time datetime="${iso}">${formatDateTime(iso, timeZone)}</time>`;

export interface Notice {
  kind: 'success' | 'error';
  text: string;
  items?: string[];
}

function noticeBlock(notice: Notice | undefined): SafeHtml {
  if (!notice) return html``;
  const role = notice.kind === 'error' ? 'alert' : 'status';
  return html`<div class="${notice.kind === 'error' ? 'notice' : 'success'}" role="${role}">
<p>${notice.text}</p>
${notice.items?.length ? html`<ul>${notice.items.map((item) => html`<li>${item}</li>`)}</ul>` : ''}
</div>`;
}

function signupHeader(signup: PublicSignupView): SafeHtml {
  return html`<h1>${signup.title}</h1>
<p class="meta">${when(signup.eventDate, signup.timeZone)}</p>
${signup.location ? html`<p class="meta">${signup.location}</p>` : ''}
${signup.description ? html`<p class="description">${signup.description}</p>` : ''}`;
}

function remainingText(choice: Choice): string {
  if (choice.type === 'slot') {
    const slot = choice.entity as SlotView;
    return slot.remaining === 0 ? `Full (${slot.capacity} of ${slot.capacity} taken)` : `${slot.remaining} of ${slot.capacity} places left`;
  }
  const item = choice.entity as ItemView;
  return item.remaining === 0 ? `All ${item.quantityNeeded} claimed` : `${item.remaining} of ${item.quantityNeeded} still needed`;
}

/** A slot's times in the signup's zone ("Tue, Jun 1, 2027, 5:00 – 7:00 PM EDT"), or an item's notes. */
function choiceHint(choice: Choice, timeZone: string): string | undefined {
  if (choice.type === 'slot') {
    const slot = choice.entity as SlotView;
    const times = slot.startTime
      ? slot.endTime
        ? formatTimeRange(slot.startTime, slot.endTime, timeZone)
        : formatDateTime(slot.startTime, timeZone)
      : undefined;
    return [times, slot.description].filter(Boolean).join('. ') || undefined;
  }
  return (choice.entity as ItemView).notes ?? undefined;
}

const describedBy = (...ids: (string | false | undefined)[]): string => ids.filter(Boolean).join(' ');

function errorText(id: string, errors: string[] | undefined): SafeHtml {
  return errors?.length ? html`<p class="error" id="${id}-error">${errors.join(' ')}</p>` : html``;
}

interface TextFieldOptions {
  id: string;
  label: string;
  type: 'text' | 'email' | 'tel';
  autocomplete: string;
  required: boolean;
  hint?: string;
}

function textField(form: FormState, options: TextFieldOptions): SafeHtml {
  const { id, label, type, autocomplete, required, hint } = options;
  const errors = form.errors[id];
  const described = describedBy(hint && `${id}-hint`, !!errors?.length && `${id}-error`);
  return html`<div class="field">
<label for="${id}">${label}</label>
${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}
${errorText(id, errors)}
<input id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" value="${form.values[id] ?? ''}"${required ? html` required` : ''}${
    described ? html` aria-describedby="${described}"` : ''
  }${errors?.length ? html` aria-invalid="true"` : ''}>
</div>`;
}

/**
 * A quantity input labelled with the slot's title or the item's name; max is what the person may
 * take. `joins`: what is asked for joins the waitlist (the label says so, and the field stays usable).
 */
function quantityInput(form: FormState, choice: Choice, max: number, joins: boolean, timeZone: string): SafeHtml {
  const id = choice.field;
  const errors = form.errors[id];
  const hint = choiceHint(choice, timeZone);
  const described = describedBy(`${id}-remaining`, hint && `${id}-hint`, !!errors?.length && `${id}-error`);
  const value = form.values[id] ?? '0';
  return html`<div class="field">
<label for="${id}">${choice.label}${joins ? ': join the waitlist' : ''}</label>
<span class="remaining" id="${id}-remaining">${remainingText(choice)}${joins ? `. ${JOIN_HINT}` : ''}</span>
${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}
${errorText(id, errors)}
<input id="${id}" name="${id}" type="number" inputmode="numeric" min="0" max="${max}" step="1" value="${value}" aria-describedby="${described}"${
    errors?.length ? html` aria-invalid="true"` : ''
  }${max === 0 ? html` disabled` : ''}>
</div>`;
}

function quantityFieldsets(
  form: FormState,
  choices: Choice[],
  timeZone: string,
  maxOf: (choice: Choice) => number,
  joins: (choice: Choice) => boolean = () => false,
): SafeHtml {
  const group = (type: Choice['type'], legend: string) => {
    const own = choices.filter((c) => c.type === type);
    return own.length
      ? html`<fieldset><legend>${legend}</legend>${own.map((c) => quantityInput(form, c, maxOf(c), joins(c), timeZone))}</fieldset>`
      : html``;
  };
  return html`${group('slot', 'Time slots')}${group('item', 'Things to bring')}`;
}

/** Lists what remains of each slot and item (for a signup that takes no registrations). */
function remainingList(signup: PublicSignupView): SafeHtml {
  const choices = choicesOf(signup);
  if (choices.length === 0) return html``;
  return html`<h2>Slots and items</h2><ul>${choices.map((c) => html`<li>${c.label}: ${remainingText(c)}</li>`)}</ul>`;
}

function errorSummary(form: FormState, labels: Record<string, string>): SafeHtml {
  const fieldMessages = Object.entries(form.errors).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));
  if (fieldMessages.length === 0 && form.summary.length === 0) return html``;
  return html`<div class="notice" role="alert" aria-labelledby="problem-heading">
<h2 id="problem-heading">Please check the form</h2>
<ul>
${form.summary.map((message) => html`<li>${message}</li>`)}
${fieldMessages.map(({ field, message }) => html`<li><a href="#${field}">${labels[field] ?? field}: ${message}</a></li>`)}
</ul>
</div>`;
}

function labelsOf(choices: Choice[], questions: QuestionView[]): Record<string, string> {
  return {
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    ...Object.fromEntries(choices.map((c) => [c.field, c.label])),
    ...Object.fromEntries(questions.map((q) => [questionField(q), q.label])),
  };
}

const PHONE_HINT = 'International format, e.g. +14155550123';

/** Why the signup takes no registration now, read from its public view (the service's own rules). */
export function notAccepting(signup: PublicSignupView, now = Date.now()): string {
  if (signup.status === 'closed') return 'This signup is closed.';
  if (Date.parse(signup.eventDate) <= now) return 'This event has already taken place, so the signup accepts no more registrations.';
  if (signup.signupCloseDate && Date.parse(signup.signupCloseDate) <= now)
    return `Registrations closed on ${formatDateTime(signup.signupCloseDate, signup.timeZone)}.`;
  if (signup.spotsRemaining === 0) return 'This signup is full: every place is taken.';
  return 'This signup is not accepting registrations any more.';
}

/**
 * Why a participant can no longer change or cancel their registration here: only while the
 * signup is published and its event is ahead (even when it is full or registrations have closed).
 * undefined while they can.
 */
export function changeClosure(signup: PublicSignupView, now = Date.now()): string | undefined {
  if (signup.status !== 'published') return 'This signup is closed';
  if (Date.parse(signup.eventDate) <= now) return 'This event has already taken place';
  return undefined;
}

const JOIN_HINT = 'Join the waitlist: you are given a place when one frees up, in turn';

/** A full signup with its waitlist on takes registrations into its line. */
const joinsSignupLine = (signup: PublicSignupView): boolean => signup.waitlist.enabled && signup.spotsRemaining === 0;

/** Whether what the form asks for of a choice joins a waitlist: of a full slot or item, or of a full signup. */
const joinsWaitlist =
  (signup: PublicSignupView) =>
  (choice: Choice): boolean =>
    signup.waitlist.enabled && (choice.entity.remaining === 0 || signup.spotsRemaining === 0);

/** What one may ask for of a choice: what remains, or with the waitlist on the whole limit (what does not fit waits in line). */
const maxToAsk =
  (signup: PublicSignupView) =>
  (choice: Choice): number => {
    if (!signup.waitlist.enabled) return choice.entity.remaining;
    return choice.type === 'slot' ? (choice.entity as SlotView).capacity : (choice.entity as ItemView).quantityNeeded;
  };

function spotsText(signup: PublicSignupView): SafeHtml {
  if (joinsSignupLine(signup)) return html`<p class="notice" role="status">This signup is full: you can join its waitlist.</p>`;
  if (signup.spotsRemaining === null) return html``;
  return html`<p>${signup.spotsRemaining} ${signup.spotsRemaining === 1 ? 'place' : 'places'} left in total.</p>`;
}

/** GET /s/{slug}: the signup, what remains, and the form (or why there is none). */
export function signupPage(signup: PublicSignupView, form: FormState, notice?: Notice): SafeHtml {
  const choices = choicesOf(signup);
  if (!signup.acceptingRegistrations) {
    return layout({
      title: signup.title,
      main: html`${signupHeader(signup)}
${noticeBlock(notice)}
<p class="notice" role="status">${notAccepting(signup)}</p>
${remainingList(signup)}`,
    });
  }
  return layout({
    title: signup.title,
    main: html`${signupHeader(signup)}
${spotsText(signup)}
${noticeBlock(notice)}
${errorSummary(form, labelsOf(choices, signup.questions))}
<form method="post" action="/s/${signup.slug}">
<h2>Sign up</h2>
${textField(form, { id: 'name', label: 'Name', type: 'text', autocomplete: 'name', required: true })}
${textField(form, { id: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true })}
${signup.requiresPhone ? textField(form, { id: 'phone', label: 'Phone', type: 'tel', autocomplete: 'tel', required: true, hint: PHONE_HINT }) : ''}
${questionFieldset(form, signup.questions)}
${quantityFieldsets(form, choices, signup.timeZone, maxToAsk(signup), joinsWaitlist(signup))}
<button type="submit">Sign up</button>
</form>`,
  });
}

/** What the confirmed or failed entry refers to, by its label. */
function labelFor(choices: Choice[], type: string, id: string): string {
  return choices.find((c) => c.field === `${type}-${id}`)?.label ?? `Unknown ${type === 'item' ? 'item' : 'slot'}`;
}

const quantityText = (type: string, quantity: number): string =>
  type === 'slot' ? `${quantity} ${quantity === 1 ? 'place' : 'places'}` : `${quantity}`;

function heldQuantities(participant: ParticipantView): Map<string, number> {
  const held = new Map<string, number>();
  for (const s of participant.selections) {
    const field = quantityField(s.type, s.id);
    held.set(field, (held.get(field) ?? 0) + s.quantity);
  }
  return held;
}

/** A participant as a form: the contact fields given, what they hold of each slot and item, their answers. */
export function participantForm(questions: QuestionView[], participant: ParticipantView, contact: Record<string, string>): FormState {
  const answers = answerValues(questions, participant.answers);
  const values: Record<string, string> = { ...contact, ...answers.values };
  for (const [field, quantity] of heldQuantities(participant)) values[field] = String(quantity);
  return emptyForm(values, answers.checked);
}

/** The edit form as it starts: the registration as it is, its answers included. */
export function registrationForm(view: RegistrationView): FormState {
  return participantForm(view.signup.questions, view.participant, { name: view.participant.name, phone: view.participant.phone ?? '' });
}

/** What GET /r/{token} shows once, right after POST /s/{slug} stored the registration (PRG). */
export interface Registered {
  /** The absolute link to keep. */
  manageUrl: string;
  /** What was asked for and could not be had (nothing of it is held). */
  failed: FailedRequest[];
}

function failedText(choices: Choice[], failed: FailedRequest): string {
  const choice = choices.find((c) => c.field === failed.field);
  if (!choice) return `${labelFor(choices, failed.type, failed.id)}: it no longer exists.`;
  const { remaining } = choice.entity;
  const asked = failed.quantity;
  if (choice.type === 'slot') {
    if (remaining === 0) return `${choice.label}: full, no place could be reserved.`;
    return asked > remaining
      ? `${choice.label}: ${quantityText('slot', asked)} asked for, only ${remaining} left, so none was reserved.`
      : `${choice.label}: could not be reserved.`;
  }
  if (remaining === 0) return `${choice.label}: all claimed already, so none was reserved for you.`;
  return asked > remaining
    ? `${choice.label}: ${asked} asked for, only ${remaining} still needed, so none was reserved.`
    : `${choice.label}: could not be reserved.`;
}

/** What a line is for, in words: "Setup", "Setup (2 places)", "Salad (2)", or "this signup". */
function lineText(choices: Choice[], entry: WaitlistEntryView): string {
  if (entry.type === 'signup') return 'this signup';
  const label = labelFor(choices, entry.type, entry.targetId);
  return entry.quantity === 1 ? label : `${label} (${quantityText(entry.type, entry.quantity)})`;
}

/** "You are number 3 on the waitlist for Setup.", or the offer and until when it is held (in the signup's zone). */
function entryText(choices: Choice[], entry: WaitlistEntryView, timeZone: string): SafeHtml {
  const line = lineText(choices, entry);
  if (entry.state === 'waiting') return html`You are number ${entry.position} on the waitlist for ${line}.`;
  return html`A place is offered to you for ${line}, held until ${when(entry.offerExpiresAt!, timeZone)}.`;
}

/** Leaving this line cancels the registration: the signup's own line, or the last thing it holds or waits for. */
const leavingCancels = (participant: ParticipantView, entry: WaitlistEntryView): boolean =>
  entry.type === 'signup' || (participant.selections.length === 0 && participant.waitlist.length === 1);

/**
 * One line of the registration with its position or offer; while the registration can change, an
 * offer has Accept and Decline (one form, Decline posting to leave), a waiting entry Leave the waitlist.
 */
function waitlistEntry(
  participant: ParticipantView,
  choices: Choice[],
  token: string,
  entry: WaitlistEntryView,
  open: boolean,
  timeZone: string,
): SafeHtml {
  const id = `waitlist-${entry.id}`;
  const action = `/r/${token}/waitlist/${entry.id}`;
  const cancels = open && leavingCancels(participant, entry);
  const described = describedBy(id, cancels && `${id}-cancels`);
  const offered = entry.state === 'offered';
  const buttons = offered
    ? html`<form method="post" action="${action}/accept">
<button type="submit" aria-describedby="${described}">Accept</button>
<button type="submit" class="secondary" formaction="${action}/leave" aria-describedby="${described}">Decline</button>
</form>`
    : html`<form method="post" action="${action}/leave">
<button type="submit" class="secondary" aria-describedby="${described}">Leave the waitlist</button>
</form>`;
  return html`<p id="${id}">${entryText(choices, entry, timeZone)}</p>
${cancels ? html`<p class="hint" id="${id}-cancels">${offered ? 'Declining' : 'Leaving'} cancels your registration.</p>` : ''}
${open ? buttons : ''}`;
}

/** The lines the registration is in, in the order joined. */
function waitlistSection(participant: ParticipantView, choices: Choice[], token: string, open: boolean, timeZone: string): SafeHtml {
  if (participant.waitlist.length === 0) return html``;
  return html`<h2>Waitlist</h2>
<ul>${participant.waitlist.map((entry) => html`<li>${waitlistEntry(participant, choices, token, entry, open, timeZone)}</li>`)}</ul>`;
}

const STATUS_TEXT: Record<ParticipantStatus, string> = {
  confirmed: 'Confirmed: you are signed up.',
  waitlisted: 'On the waitlist: you are given a place when one frees up, in turn.',
  offered: 'A place is offered to you: accept it before the offer ends, or it passes to the next in line.',
  cancelled: 'Canceled.',
  attended: 'Checked in: you attended.',
  no_show: 'Marked as absent.',
};

function statusBlock(participant: ParticipantView): SafeHtml {
  return html`<p id="registration-status"><strong>Status:</strong> ${STATUS_TEXT[participant.status]}</p>`;
}

function registeredHeading(registered: Registered, participant: ParticipantView): string {
  if (participant.status === 'waitlisted') return "You're on the waitlist — keep this link";
  if (registered.failed.length) return "You're signed up, but not for everything — keep this link";
  if (participant.waitlist.length) return "You're signed up, and on the waitlist for more — keep this link";
  return "You're signed up — keep this link";
}

/** The one-time confirmation: what is held, the lines joined with their positions, what could not be had, and the link to keep. */
function registeredBlock(registered: Registered, choices: Choice[], participant: ParticipantView, timeZone: string): SafeHtml {
  const heading = registeredHeading(registered, participant);
  return html`<section class="keep" role="status" aria-labelledby="registered-heading">
<h2 id="registered-heading">${heading}</h2>
${
  participant.selections.length
    ? html`<h3>Confirmed</h3>
<ul>${participant.selections.map((s) => html`<li>${labelFor(choices, s.type, s.id)}: ${quantityText(s.type, s.quantity)}</li>`)}</ul>`
    : participant.waitlist.length
      ? ''
      : html`<p>You are signed up without a slot or item.</p>`
}
${
  participant.waitlist.length
    ? html`<h3>On the waitlist</h3>
<ul>${participant.waitlist.map((e) => html`<li>${entryText(choices, e, timeZone)}</li>`)}</ul>`
    : ''
}
${
  registered.failed.length
    ? html`<h3>Could not be reserved</h3>
<ul>${registered.failed.map((f) => html`<li>${failedText(choices, f)}</li>`)}</ul>`
    : ''
}
<p>Keep this link: it is the only way to change or cancel your registration later. Bookmark it or save it somewhere safe, and do not share it, because anyone who has it can change your registration.</p>
<p><a href="${registered.manageUrl}">${registered.manageUrl}</a></p>
</section>`;
}

export interface RegistrationPageOptions {
  notice?: Notice;
  registered?: Registered;
  /** The participant's own events (libs/calendar participantEvents): the add-to-calendar links. */
  calendar?: CalendarEvent[];
}

/** A link to a calendar service, in a new tab; described by the event it adds and by the new-tab hint. */
function calendarLink(href: string, service: string, eventId: string): SafeHtml {
  return html`<a href="${href}" target="_blank" rel="noopener" aria-describedby="${eventId} calendar-new-tab">${service}</a>`;
}

/**
 * Add-to-calendar links: Google Calendar and Outlook for each event held (not for a place only
 * waited for), and the participant's own calendar file, which follows later changes when subscribed
 * to: at its read-only address (calendarUrl), never the confirmation token's, which a calendar
 * service that subscribes keeps.
 */
function calendarSection(events: CalendarEvent[], calendarUrl: string): SafeHtml {
  const confirmed = events.filter((event) => event.status === 'CONFIRMED');
  return html`<section class="calendar" aria-labelledby="calendar-heading">
<h2 id="calendar-heading">Add to your calendar</h2>
${
  confirmed.length
    ? html`<ul>${confirmed.map(
        (
          event,
          i,
        ) => html`<li><span id="calendar-event-${i}">${event.summary}, ${when(new Date(event.start).toISOString(), event.timeZone)}</span>:
${calendarLink(googleCalendarLink(event), 'Google Calendar', `calendar-event-${i}`)}
${calendarLink(outlookCalendarLink(event), 'Outlook', `calendar-event-${i}`)}</li>`,
      )}</ul>
<p class="hint" id="calendar-new-tab">Google Calendar and Outlook open in a new tab.</p>`
    : ''
}
<p><a href="${calendarUrl}" download>Calendar file (.ics)</a> for Apple Calendar and other apps. A calendar that subscribes to its address follows your changes and a cancellation.</p>
</section>`;
}

/** GET /r/{token}: the registration, a form to change it and a form to cancel it. */
export function registrationPage(view: RegistrationView, token: string, form: FormState, options: RegistrationPageOptions = {}): SafeHtml {
  const { participant, signup } = view;
  const choices = choicesOf(signup);
  const held = heldQuantities(participant);
  const selections = participant.selections.map(
    (s) => html`<li>${labelFor(choices, s.type, s.id)}: ${quantityText(s.type, s.quantity)}</li>`,
  );
  const closure = changeClosure(signup);
  return layout({
    title: `Your registration: ${signup.title}`,
    main: html`<h1>Your registration</h1>
<p>For <strong>${signup.title}</strong> on ${when(signup.eventDate, signup.timeZone)}.</p>
${statusBlock(participant)}
${options.registered ? registeredBlock(options.registered, choices, participant, signup.timeZone) : ''}
${noticeBlock(options.notice)}
<h2>Details</h2>
<dl>
<dt>Name</dt><dd>${participant.name}</dd>
<dt>Phone</dt><dd>${participant.phone ?? 'Not given'}</dd>
${signup.questions.map((q) => html`<dt>${q.label}</dt><dd>${q.id in participant.answers ? answerText(participant.answers[q.id]!) : 'Not answered'}</dd>`)}
</dl>
<h2>What you signed up for</h2>
${selections.length ? html`<ul>${selections}</ul>` : html`<p>No slots or items.</p>`}
${waitlistSection(participant, choices, token, Date.parse(signup.eventDate) > Date.now(), signup.timeZone)}
${options.calendar ? calendarSection(options.calendar, view.calendarUrl) : ''}
${
  closure === undefined
    ? html`<h2>Change your registration</h2>
${errorSummary(form, labelsOf(choices, signup.questions))}
<form method="post" action="/r/${token}">
${textField(form, { id: 'name', label: 'Name', type: 'text', autocomplete: 'name', required: true })}
${textField(form, { id: 'phone', label: 'Phone', type: 'tel', autocomplete: 'tel', required: signup.requiresPhone, hint: PHONE_HINT })}
${questionFieldset(form, signup.questions)}
${
  waitsForSignup(participant)
    ? html`<p>You can choose slots and items once you have a place in the signup.</p>`
    : quantityFieldsets(form, choices, signup.timeZone, (c) => c.entity.remaining + (held.get(c.field) ?? 0))
}
<button type="submit">Save changes</button>
</form>
<h2>Cancel your registration</h2>
<form method="post" action="/r/${token}/cancel">
<p>This frees your places for others. It cannot be undone.</p>
<button type="submit" class="secondary">Cancel registration</button>
</form>`
    : html`<p class="notice" role="status">${closure}, so your registration can no longer be changed or canceled here. Contact the organizer if you need to.</p>`
}`,
  });
}

/** After POST /r/{token}/cancel, and GET /r/{token} of a canceled registration ever after. */
export function canceledPage(view: RegistrationView, notice?: Notice): SafeHtml {
  return layout({
    title: 'Registration canceled',
    main: html`<h1>Your registration is canceled</h1>
${noticeBlock(notice)}
<p>You are no longer signed up for <strong>${view.signup.title}</strong> on ${when(view.signup.eventDate, view.signup.timeZone)}. Your places are free for others.</p>
<p><a href="/s/${view.signup.slug}">Back to the signup</a></p>`,
  });
}

export function notFoundPage(): SafeHtml {
  return layout({
    title: 'Not found',
    main: html`<h1>Not found</h1>
<p>There is nothing here. The signup may not be published, or the link may be mistyped or no longer valid.</p>`,
  });
}

export function errorPage(message: string, heading = 'Something went wrong'): SafeHtml {
  return layout({
    title: heading,
    main: html`<h1>${heading}</h1>
<p>${message}</p>`,
  });
}

/** The body of a 303 to the page that shows the outcome (browsers follow it without showing this). */
export function seeOtherPage(location: string): SafeHtml {
  return layout({
    title: 'See other',
    main: html`<h1>Done</h1>
<p><a href="${location}">Continue</a></p>`,
  });
}
