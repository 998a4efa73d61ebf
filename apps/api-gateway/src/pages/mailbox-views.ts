import { DEFAULT_TIME_ZONE, type EmailView, formatDateTime } from '#libs/contracts';
import { html, layout, type SafeHtml } from '#libs/web';

const KIND_LABELS: Record<EmailView['kind'], string> = {
  confirmation: 'Confirmation',
  change: 'Change',
  cancellation: 'Cancellation',
  waitlisted: 'Waitlisted',
  offer: 'Offer',
  promoted: 'Promoted',
  reminder: 'Reminder',
  account_verification: 'Account verification',
  password_reset: 'Password reset',
};

/** When an email was recorded; a local mailbox shows UTC, whatever the signup's zone. */
const received = (email: EmailView): string => formatDateTime(email.createdAt, DEFAULT_TIME_ZONE);

const URL_PATTERN = /https?:\/\/[^\s<>"')\]]+/g;

/** The text part with its web addresses as links (the text is ours: links to our pages). */
function linkified(text: string): SafeHtml[] {
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    parts.push(html`${text.slice(last, match.index)}`, html`<a href="${match[0]}">${match[0]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return parts;
}

/** Every stored email, newest first. */
export function mailboxPage(emails: EmailView[]): SafeHtml {
  return layout({
    title: 'Mailbox',
    main: html`<h1>Mailbox</h1>
<p>The emails this local platform stored instead of sending: without <code>SMTP_URL</code> nothing leaves this machine. Open one to follow its links.</p>
${
  emails.length === 0
    ? html`<p>No emails yet. Register on a signup page and your confirmation appears here.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Emails">
<table>
<thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Kind</th></tr></thead>
<tbody>
${emails.map(
  (email) =>
    html`<tr><td>${received(email)}</td><td>${email.to}</td><td><a href="/mailbox/${email.id}">${email.subject}</a></td><td>${KIND_LABELS[email.kind]}</td></tr>`,
)}
</tbody>
</table>
</div>`
}`,
  });
}

/** One email: its headers, its text part with working links, and its HTML part and invitation a click away. */
export function mailboxMessagePage(email: EmailView): SafeHtml {
  return layout({
    title: email.subject,
    main: html`<p><a href="/mailbox">Back to the mailbox</a></p>
<h1>${email.subject}</h1>
<dl>
<dt>From</dt><dd>${email.from.name} &lt;${email.from.address}&gt;</dd>
<dt>To</dt><dd>${email.to}</dd>
<dt>Received</dt><dd>${received(email)}</dd>
<dt>Kind</dt><dd>${KIND_LABELS[email.kind]}</dd>
</dl>
<p><a href="/mailbox/${email.id}/html">Open the HTML version</a>${
      email.calendar ? html` · <a href="/mailbox/${email.id}/invite.ics">Download the calendar invitation (.ics)</a>` : ''
    }${email.unsubscribeUrl ? html` · <a href="${email.unsubscribeUrl}">Unsubscribe link</a>` : ''}</p>
<h2>Text version</h2>
<pre class="email-text">${linkified(email.text)}</pre>`,
  });
}
