import type { DeliveryView, WebhookEndpointView } from '#libs/contracts';
import { emptyFormView } from './fields.js';
import type { Viewer } from './frame.js';
import { deliveryRows, newWebhookFormValues, signingSecretPage, webhookPage, webhooksListPage } from './webhooks.js';

const viewer = (role: string): Viewer => ({
  email: 'owner@example.com',
  organization: { id: 'org_1', name: 'Food bank', tier: 'pro', timeZone: 'Europe/Paris' },
  role,
  organizations: [],
  csrf: 'csrf-token-1',
});

const endpoint: WebhookEndpointView = {
  id: '0190a5b2-0000-7000-8000-000000000001',
  url: 'https://example.com/hooks?a=1&b="<script>"',
  description: 'Billing <b>team</b>',
  eventTypes: ['participant.registered', 'slot.filled'],
  paused: false,
  pausedReason: null,
  pausedAt: null,
  consecutiveFailures: 0,
  lastSuccessAt: null,
  lastFailureAt: null,
  livemode: true,
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
};

const delivery: DeliveryView = {
  id: '0190a5b2-0000-7000-8000-0000000000d1',
  eventId: '0190a5b2-0000-7000-8000-0000000000e1',
  eventType: 'participant.registered',
  status: 'failed',
  attemptCount: 3,
  lastResponseStatus: 503,
  errorMessage: 'Service <unavailable>',
  createdAt: '2026-11-21T10:00:00.000Z',
  deliveredAt: null,
  nextAttemptAt: null,
};

const listPage = (role: string, endpoints = [endpoint]) =>
  webhooksListPage(viewer(role), endpoints, { form: emptyFormView(newWebhookFormValues()) }).value;

describe('the webhooks pages', () => {
  it('escapes the URL and description of an endpoint', () => {
    const page = listPage('owner');
    expect(page).toContain('https://example.com/hooks?a=1&amp;b=&quot;&lt;script&gt;&quot;');
    expect(page).toContain('Billing &lt;b&gt;team&lt;/b&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>team');
  });

  it('lists each endpoint with its event types, status and creation time in the organization zone', () => {
    const page = listPage('owner', [{ ...endpoint, paused: true, pausedReason: 'gone' }]);
    expect(page).toContain(`href="/app/webhooks/${endpoint.id}"`);
    expect(page).toContain('<code>participant.registered</code>');
    expect(page).toContain('Paused: the endpoint answered 410 Gone');
    expect(page).toContain('<time datetime="2026-11-20T09:00:00.000Z">');
  });

  it('offers owners the new endpoint form with every event type, all checked by default', () => {
    const page = listPage('admin');
    expect(page).toContain('<form method="post" action="/app/webhooks"');
    expect(page).toContain('<input type="hidden" name="csrf" value="csrf-token-1">');
    expect(page).toMatch(/<input id="event-all" name="event-all" type="checkbox" value="on" checked/);
    expect(page).toMatch(/<input id="event-participant.no_show" name="event-participant.no_show" type="checkbox" value="on">/);
    expect(page).toContain('name="event-webhook.test"');
  });

  it('keeps the values entered and puts the API errors beside their fields', () => {
    const form = {
      values: { url: 'ftp://x', 'event-slot.filled': 'on' },
      errors: { url: ['must be an http or https URL'], eventTypes: ['too few'] },
    };
    const page = webhooksListPage(viewer('owner'), [], { form }).value;
    expect(page).toContain('<p class="error" id="url-error">must be an http or https URL</p>');
    expect(page).toMatch(/value="ftp:\/\/x" required aria-invalid="true" aria-describedby="url-hint url-error">/);
    expect(page).toContain('<fieldset id="eventTypes" aria-describedby="eventTypes-error">');
    expect(page).toContain('<a href="#eventTypes">Event types</a>: too few');
    expect(page).toMatch(/name="event-slot.filled" type="checkbox" value="on" checked/);
    expect(page).not.toMatch(/name="event-all" type="checkbox" value="on" checked/);
  });

  it('shows the signing secret once, in a read-only field to copy, saying it will not be shown again', () => {
    const page = signingSecretPage(viewer('owner'), endpoint, 'whsec_abc+/=', 'created').value;
    expect(page).toContain('<input id="signing-secret" readonly value="whsec_abc+/=" data-copy');
    expect(page).toContain('It will not be shown again.');
    expect(page.split('whsec_abc+/=')).toHaveLength(2);
    expect(signingSecretPage(viewer('owner'), endpoint, 'whsec_new', 'rotated').value).toContain(
      'previous secret keeps signing for 24 hours',
    );
  });

  it('lists deliveries with event type, status, attempts, response code and time, each with a replay', () => {
    const rows = deliveryRows(viewer('owner'), endpoint, [delivery]).value;
    expect(rows).toContain('<code>participant.registered</code>');
    expect(rows).toContain('Failed');
    expect(rows).toContain('Service &lt;unavailable&gt;');
    expect(rows).toContain('<td>3</td>');
    expect(rows).toContain('<td>503</td>');
    expect(rows).toContain('<time datetime="2026-11-21T10:00:00.000Z">');
    expect(rows).toContain(`action="/app/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay"`);
    expect(deliveryRows(viewer('owner'), endpoint, []).value).toContain('No deliveries yet.');
  });

  it('offers pause on an active endpoint and resume on a paused one, with test, rotate, delete and the next page', () => {
    const active = webhookPage(viewer('owner'), endpoint, [delivery], { nextCursor: 'c/2' }).value;
    for (const action of ['pause', 'test', 'rotate']) expect(active).toContain(`action="/app/webhooks/${endpoint.id}/${action}"`);
    // Deleting asks first, on a page of its own.
    expect(active).toContain(`href="/app/webhooks/${endpoint.id}/delete"`);
    expect(active).toMatch(
      /action="\/app\/webhooks\/[^"]+\/rotate" class="inline"><input type="hidden" name="csrf" value="[^"]+"><input type="hidden" name="idempotencyKey" value="[0-9a-f-]{36}">/,
    );
    expect(active).not.toContain('/resume"');
    expect(active).toContain(`href="/app/webhooks/${endpoint.id}?cursor=c%2F2"`);
    const paused = webhookPage(viewer('owner'), { ...endpoint, paused: true, pausedReason: 'manual' }, [], {}).value;
    expect(paused).toContain(`action="/app/webhooks/${endpoint.id}/resume"`);
    expect(paused).not.toContain('/pause"');
  });

  it('shows the answer of a test event, escaped', () => {
    const page = webhookPage(viewer('owner'), endpoint, [], {
      test: { delivered: false, responseStatus: 500, responseBody: '<h1>oops</h1>', errorMessage: null, latencyMs: 12 },
    }).value;
    expect(page).toContain('Test event not delivered');
    expect(page).toContain('The endpoint gave HTTP 500 in 12 ms.');
    expect(page).toContain('&lt;h1&gt;oops&lt;/h1&gt;');
  });
});
