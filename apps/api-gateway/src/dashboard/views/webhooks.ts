import { randomUUID } from 'node:crypto';
import {
  ALL_EVENT_TYPES,
  DEFAULT_TIME_ZONE,
  type DeliveryStatus,
  type DeliveryView,
  type PausedReason,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointView,
  type WebhookTestView,
} from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { GUIDE_PATH } from '../../openapi/openapi.js';
import { checkboxField, errorSummary, type FormView, inputField } from './fields.js';
import {
  ACTIONS,
  csrfField,
  dashboardPage,
  dataTable,
  hiddenFields,
  IDEMPOTENCY_FIELD,
  nextPageLink,
  type Notice,
  postButton,
  type Viewer,
  when,
} from './frame.js';

/** The form's checkbox of an event type; `*` (every type) is `event-all`. */
export const eventTypeField = (type: string): string => (type === ALL_EVENT_TYPES ? 'event-all' : `event-${type}`);

/** The fields of the new endpoint form, by name, with their labels (for the error summary). */
export const WEBHOOK_FIELD_LABELS: Record<string, string> = {
  url: 'URL',
  description: 'Description',
  eventTypes: 'Event types',
};

/** A new endpoint's form: every event type. */
export const newWebhookFormValues = (): Record<string, string> => ({ [eventTypeField(ALL_EVENT_TYPES)]: 'on' });

const PAUSED_TEXT: Record<PausedReason, string> = {
  manual: 'Paused',
  gone: 'Paused: the endpoint answered 410 Gone',
  consecutive_failures: 'Paused after repeated failures',
};

export function endpointStatus(endpoint: Pick<WebhookEndpointView, 'paused' | 'pausedReason'>): SafeHtml {
  return endpoint.paused
    ? html`<span class="badge badge-closed">${PAUSED_TEXT[endpoint.pausedReason ?? 'manual']}</span>`
    : html`<span class="badge badge-published">Active</span>`;
}

const DELIVERY_STATUS: Record<DeliveryStatus, [label: string, badge: string]> = {
  pending: ['Pending', 'badge-waitlisted'],
  succeeded: ['Delivered', 'badge-published'],
  failed: ['Failed', 'badge-closed'],
  skipped: ['Skipped (paused)', 'badge-draft'],
};

const deliveryBadge = (status: DeliveryStatus): SafeHtml =>
  html`<span class="badge ${DELIVERY_STATUS[status][1]}">${DELIVERY_STATUS[status][0]}</span>`;

const eventTypesText = (types: string[]): SafeHtml =>
  types.includes(ALL_EVENT_TYPES)
    ? html`All event types`
    : html`<ul class="plain">${types.map((t) => html`<li><code>${t}</code></li>`)}</ul>`;

const zoneOf = (viewer: Viewer): string => viewer.organization.timeZone ?? DEFAULT_TIME_ZONE;

function newEndpointForm(viewer: Viewer, form: FormView): SafeHtml {
  const typesError = form.errors.eventTypes?.length
    ? html`<p class="error" id="eventTypes-error">${form.errors.eventTypes.join(' ')}</p>`
    : '';
  return html`<section aria-labelledby="new-endpoint-heading">
<h2 id="new-endpoint-heading">New endpoint</h2>
${errorSummary(form, WEBHOOK_FIELD_LABELS)}
<form method="post" action="/app/webhooks" class="stack" novalidate>
${csrfField(viewer)}
${hiddenFields({ [IDEMPOTENCY_FIELD]: randomUUID() })}
${inputField(form, { name: 'url', label: 'URL', type: 'url', required: true, hint: 'Where the events are POSTed, signed. https only.' })}
${inputField(form, { name: 'description', label: 'Description', hint: 'For you: what this endpoint is for.' })}
<fieldset id="eventTypes"${typesError ? html` aria-describedby="eventTypes-error"` : ''}>
<legend>Event types</legend>
${typesError}
${checkboxField(form, { name: eventTypeField(ALL_EVENT_TYPES), label: 'All event types, present and future', hint: 'When checked, the types below are ignored.' })}
${WEBHOOK_EVENT_TYPES.map((type) => checkboxField(form, { name: eventTypeField(type), label: type }))}
</fieldset>
<p><button type="submit" class="button">Create endpoint</button></p>
</form>
</section>`;
}

/** The organization's endpoints, and the form of a new one (only owners and admins reach these pages: the API refuses members). */
export function webhooksListPage(
  viewer: Viewer,
  endpoints: WebhookEndpointView[],
  options: { form: FormView; nextCursor?: string | null; notice?: Notice },
): SafeHtml {
  const rows = endpoints.map(
    (endpoint) => html`<tr>
<th scope="row"><a href="/app/webhooks/${endpoint.id}">${endpoint.url}</a>${endpoint.description ? html`<br><span class="muted">${endpoint.description}</span>` : ''}</th>
<td>${eventTypesText(endpoint.eventTypes)}</td>
<td>${endpointStatus(endpoint)}</td>
<td>${when(endpoint.createdAt, zoneOf(viewer))}</td>
</tr>`,
  );
  const table =
    endpoints.length === 0
      ? html`<p>No endpoints yet.</p>`
      : dataTable({
          label: 'Table of endpoints',
          caption: `Webhook endpoints of ${viewer.organization.name}`,
          headers: ['URL', 'Event types', 'Status', 'Created'],
          body: html`${rows}`,
        });
  const next = nextPageLink('/app/webhooks', options.nextCursor);
  return dashboardPage(
    viewer,
    'webhooks',
    'Webhooks',
    html`<h1>Webhooks</h1>
<p>Each endpoint receives the events it subscribed to, signed with its secret (<a href="${GUIDE_PATH}">how to verify them</a>).</p>
${table}
${next}
${newEndpointForm(viewer, options.form)}`,
    options.notice,
  );
}

/** The signing secret, once: after a creation or a rotation. Nothing can show it again. */
export function signingSecretPage(viewer: Viewer, endpoint: WebhookEndpointView, secret: string, event: 'created' | 'rotated'): SafeHtml {
  const title = event === 'created' ? 'Endpoint created' : 'Signing secret rotated';
  return dashboardPage(
    viewer,
    'webhooks',
    title,
    html`<p><a href="/app/webhooks">Webhooks</a></p>
<h1>${title}</h1>
<p>${endpoint.url}</p>
<div class="notice" role="status">
<p><strong>Copy the signing secret now. It will not be shown again.</strong> Your receiver needs it to verify each delivery.${
      event === 'rotated' ? ' The previous secret keeps signing for 24 hours beside this one, time to switch.' : ''
    }</p>
</div>
<div class="field">
<label for="signing-secret">Signing secret</label>
<input id="signing-secret" readonly value="${secret}" data-copy autocomplete="off" spellcheck="false">
</div>
<p><a class="button" href="/app/webhooks/${endpoint.id}">I have copied it: go to the endpoint</a></p>`,
  );
}

function testResult(result: WebhookTestView): SafeHtml {
  const answer = result.responseStatus === null ? 'no answer' : html`HTTP ${result.responseStatus}`;
  return html`<section aria-labelledby="test-heading" class="${result.delivered ? 'success' : 'notice'}" role="status">
<h2 id="test-heading">Test event ${result.delivered ? 'delivered' : 'not delivered'}</h2>
<p>The endpoint gave ${answer} in ${result.latencyMs} ms.${result.errorMessage ? html` ${result.errorMessage}` : ''}</p>
${result.responseBody ? html`<pre class="code" tabindex="0">${result.responseBody}</pre>` : ''}
</section>`;
}

function endpointActions(viewer: Viewer, endpoint: WebhookEndpointView): SafeHtml {
  const base = `/app/webhooks/${endpoint.id}`;
  return html`<div class="toolbar">
${endpoint.paused ? postButton(viewer, `${base}/resume`, 'Resume') : postButton(viewer, `${base}/pause`, 'Pause', 'secondary')}
${postButton(viewer, `${base}/test`, 'Send a test event', 'secondary')}
${postButton(viewer, `${base}/rotate`, 'Rotate the signing secret', 'secondary', { [IDEMPOTENCY_FIELD]: randomUUID() })}
<a class="button danger" href="${base}/delete">Delete</a>
</div>`;
}

/** The table body of an endpoint's deliveries, newest first, each with a replay. */
export function deliveryRows(viewer: Viewer, endpoint: WebhookEndpointView, deliveries: DeliveryView[]): SafeHtml {
  if (deliveries.length === 0) return html`<tr><td colspan="6">No deliveries yet.</td></tr>`;
  return html`${deliveries.map(
    (delivery) => html`<tr id="delivery-${delivery.id}">
<th scope="row"><code>${delivery.eventType}</code></th>
<td>${deliveryBadge(delivery.status)}${delivery.errorMessage ? html`<br><span class="muted">${delivery.errorMessage}</span>` : ''}</td>
<td>${delivery.attemptCount}</td>
<td>${delivery.lastResponseStatus ?? '—'}</td>
<td>${when(delivery.deliveredAt ?? delivery.createdAt, zoneOf(viewer))}</td>
<td>${postButton(
      viewer,
      `/app/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay`,
      html`Replay<span class="visually-hidden"> ${delivery.eventType} of ${delivery.createdAt}</span>`,
      'secondary',
    )}</td>
</tr>`,
  )}`;
}

/** One endpoint: its settings, actions, the last test's answer and its delivery history. */
export function webhookPage(
  viewer: Viewer,
  endpoint: WebhookEndpointView,
  deliveries: DeliveryView[],
  options: { nextCursor?: string | null; notice?: Notice; test?: WebhookTestView },
): SafeHtml {
  const base = `/app/webhooks/${endpoint.id}`;
  const next = nextPageLink(base, options.nextCursor, 'Older deliveries');
  return dashboardPage(
    viewer,
    'webhooks',
    endpoint.url,
    html`<p><a href="/app/webhooks">Webhooks</a></p>
<h1 class="break">${endpoint.url} ${endpointStatus(endpoint)}</h1>
${endpoint.description ? html`<p>${endpoint.description}</p>` : ''}
<dl class="meta">
<dt>Event types</dt><dd>${eventTypesText(endpoint.eventTypes)}</dd>
<dt>Created</dt><dd>${when(endpoint.createdAt, zoneOf(viewer))}</dd>
<dt>Last success</dt><dd>${endpoint.lastSuccessAt ? when(endpoint.lastSuccessAt, zoneOf(viewer)) : 'None yet'}</dd>
<dt>Failures in a row</dt><dd>${endpoint.consecutiveFailures}</dd>
</dl>
${endpointActions(viewer, endpoint)}
${options.test ? testResult(options.test) : ''}
<section aria-labelledby="deliveries-heading">
<h2 id="deliveries-heading">Deliveries</h2>
${dataTable({
  label: 'Table of deliveries',
  headers: ['Event', 'Status', 'Attempts', 'Response', 'Time', ACTIONS],
  body: deliveryRows(viewer, endpoint, deliveries),
})}
${next}
</section>`,
    options.notice,
  );
}
