import {
  formatDateTime,
  NOT_ELIGIBLE_REASONS,
  type NotEligibleReason,
  type ParticipantView,
  type PassChannel,
  type ReminderChannel,
  type ReminderChannelStatusView,
  type ReminderPassView,
  type ReminderStatusView,
  type SignupView,
} from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { canWrite, csrfField, dashboardPage, dataTable, type Notice, type Viewer, when } from './frame.js';

const REASON_LABELS: Record<NotEligibleReason, string> = {
  not_mobile: 'not a mobile number',
  country_not_allowed: 'number in a country not texted',
  bounced: 'bounced address',
  unsubscribed: 'unsubscribed',
};

const CHANNEL_CHOICES: Record<ReminderChannel, string> = { email: 'Email', sms: 'SMS', both: 'Email and SMS' };

/** A count with its noun: "1 email", "12 emails". */
const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Where the day's ceilings start again, in the organization's time zone (the ceilings count UTC days). */
const zoneOf = (viewer: Viewer): string => viewer.organization.timeZone ?? 'UTC';

/**
 * A pass's result as the query of the page it redirects to (Post/Redirect/Get): the sent counts of
 * the channels that ran, the failures, those the ceiling left for later, those never reminded by reason.
 */
export function passQuery(pass: ReminderPassView): string {
  const params = new URLSearchParams({ done: 'sent' });
  for (const channel of ['email', 'sms'] as const) {
    const counts = pass.channels[channel];
    if (counts) params.set(channel, String(counts.sent));
  }
  const waiting = pass.eligible - pass.sent - pass.failed;
  if (pass.failed > 0) params.set('failed', String(pass.failed));
  if (waiting > 0) params.set('waiting', String(waiting));
  for (const { reason, count } of pass.notEligible) params.set(reason, String(count));
  return params.toString();
}

/** The notice of a pass from its page's query (numbers only: anything else is left out). */
export function passNotice(query: Record<string, unknown>): Notice | undefined {
  if (query.done !== 'sent') return undefined;
  const count = (name: string): number | undefined => {
    const value = query[name];
    return typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : undefined;
  };
  const email = count('email');
  const sms = count('sms');
  const sent = [email !== undefined && counted(email, 'email'), sms !== undefined && counted(sms, 'text')].filter(Boolean);
  if (sent.length === 0) return undefined;
  const reasons = NOT_ELIGIBLE_REASONS.flatMap((reason) => {
    const n = count(reason);
    return n ? [`${n} ${REASON_LABELS[reason]}`] : [];
  });
  const notEligible = reasons.length
    ? `; ${NOT_ELIGIBLE_REASONS.reduce((sum, reason) => sum + (count(reason) ?? 0), 0)} not eligible: ${reasons.join(', ')}`
    : '';
  const failed = count('failed') ? ` ${counted(count('failed')!, 'text')} failed: they stay eligible for the next pass.` : '';
  const waiting = count('waiting')
    ? ` ${count('waiting')} not reached: today's ceiling ran out, they stay eligible for the next pass.`
    : '';
  return { kind: 'success', text: `Sent ${sent.join(' and ')}${notEligible}.${failed}${waiting}` };
}

/** The notice of a pass refused for the day's ceiling: nothing was sent, and when it starts again. */
export function ceilingNotice(viewer: Viewer, channel: ReminderChannel, status: ReminderStatusView): Notice {
  const what = { email: 'emails', sms: 'SMS reminders', both: 'emails and SMS reminders' }[channel];
  const resetsAt = channel === 'sms' ? status.channels.sms.resetsAt : status.channels.email.resetsAt;
  return {
    kind: 'error',
    text: `Nothing was sent: the organization's ${what} for today are used up. The ceiling starts again at ${formatDateTime(resetsAt, zoneOf(viewer))} (midnight UTC).`,
  };
}

function unavailableText(viewer: Viewer, channel: PassChannel): SafeHtml {
  const owner =
    viewer.role === 'owner' ? 'You can change the tier of the organization.' : 'An owner can change the tier of the organization.';
  return channel === 'sms'
    ? html`<p>SMS reminders come with the pro tier; ${viewer.organization.name} is on the ${viewer.organization.tier} tier. ${owner}</p>`
    : html`<p>Email reminders are not part of the ${viewer.organization.tier} tier. ${owner}</p>`;
}

function channelSection(viewer: Viewer, channel: PassChannel, day: ReminderChannelStatusView): SafeHtml {
  const title = channel === 'sms' ? 'SMS' : 'Email';
  const noun = channel === 'sms' ? 'texts' : 'emails';
  const body = !day.available
    ? unavailableText(viewer, channel)
    : html`<p><meter min="0" max="${day.ceiling}" value="${day.remaining}">${day.remaining}</meter> ${day.remaining} of ${day.ceiling} ${noun} left today, resets at ${when(
        day.resetsAt,
        zoneOf(viewer),
      )}.</p>
${channel === 'email' ? html`<p class="hint">Confirmations and notices to participants count against the same ceiling.</p>` : ''}
${day.usesCeiling ? '' : html`<p class="hint">This is a test-mode signup: its reminders are stored, never sent, and use none of the ceiling.</p>`}`;
  return html`<section aria-labelledby="channel-${channel}-heading">
<h3 id="channel-${channel}-heading">${title}</h3>
${body}
</section>`;
}

function sendForm(viewer: Viewer, signup: SignupView, status: ReminderStatusView): SafeHtml {
  if (!canWrite(viewer)) return html`<p>Owners and admins can send reminders.</p>`;
  const choices: ReminderChannel[] = status.channels.sms.available
    ? status.channels.email.available
      ? ['email', 'sms', 'both']
      : ['sms']
    : status.channels.email.available
      ? ['email']
      : [];
  if (choices.length === 0) return html`<p>The tier of the organization has no reminders.</p>`;
  return html`<form method="post" action="/app/signups/${signup.id}/reminders">
${csrfField(viewer)}
<fieldset>
<legend>Remind by</legend>
${choices.map(
  (choice, i) =>
    html`<div class="option"><input type="radio" id="channel-${choice}" name="channel" value="${choice}"${i === 0 ? html` checked` : ''}><label for="channel-${choice}">${CHANNEL_CHOICES[choice]}</label></div>`,
)}
</fieldset>
<p class="hint">Everyone registered who was not reminded of this signup by that channel yet gets one reminder.</p>
<button type="submit" class="button">Send now</button>
</form>`;
}

function remindedSection(signup: SignupView, status: ReminderStatusView, participants: ParticipantView[]): SafeHtml {
  const reminded = participants
    .filter((p): p is ParticipantView & { remindedAt: string } => p.remindedAt !== null)
    .sort((a, b) => a.remindedAt.localeCompare(b.remindedAt));
  const waiting = participants.filter((p) => p.remindedAt === null && p.status === 'confirmed').length;
  const summary = html`<p>${counted(status.reminded.email, 'email')} and ${counted(status.reminded.sms, 'text')} sent for this signup so far${
    status.lastSentAt ? html`, the latest at ${when(status.lastSentAt, signup.timeZone)}` : ''
  }.</p>`;
  const table =
    reminded.length === 0
      ? html`<p>Nobody was reminded yet.</p>`
      : dataTable({
          label: 'Participants reminded',
          headers: ['Name', 'Email', 'Phone', 'First reminded'],
          body: html`${reminded.map(
            (p) =>
              html`<tr><td>${p.name}</td><td>${p.email}</td><td>${p.phone ?? '—'}</td><td>${when(p.remindedAt, signup.timeZone)}</td></tr>`,
          )}`,
        });
  return html`<section aria-labelledby="reminded-heading">
<h2 id="reminded-heading">Who was reminded</h2>
${summary}
${table}
${waiting > 0 ? html`<p>${waiting} confirmed ${waiting === 1 ? 'participant' : 'participants'} not reminded yet.</p>` : ''}
</section>`;
}

/** A signup's reminders: each channel's ceiling of the day, the form to send now, and who was reminded when. */
export function remindersPage(
  viewer: Viewer,
  signup: SignupView,
  status: ReminderStatusView,
  participants: ParticipantView[],
  notice?: Notice,
): SafeHtml {
  return dashboardPage(
    viewer,
    'signups',
    `Reminders for ${signup.title}`,
    html`<p><a href="/app/signups/${signup.id}">${signup.title}</a></p>
<h1>Reminders</h1>
<section aria-labelledby="today-heading">
<h2 id="today-heading">Today</h2>
${channelSection(viewer, 'email', status.channels.email)}
${channelSection(viewer, 'sms', status.channels.sms)}
</section>
<section aria-labelledby="send-heading">
<h2 id="send-heading">Send now</h2>
${signup.status === 'published' ? '' : html`<p class="hint">Reminders go out for published signups only.</p>`}
${sendForm(viewer, signup, status)}
</section>
${remindedSection(signup, status, participants)}`,
    notice,
  );
}
