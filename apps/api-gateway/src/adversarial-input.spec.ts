import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  AdminCreateApiKeyDto,
  CreateSignupDto,
  isEmailAddress,
  isPhoneNumber,
  PageQueryDto,
  RegistrationDto,
  type SlotView,
} from '#libs/contracts';
import { acceptRequestId, loggablePath, redactSecrets } from '#libs/observability';
import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, MAX_HEADER_BYTES, ONE_MIB, repeatedTo } from '#libs/testing';
import { escapeHtml } from '#libs/web';
import { isJsonContentType } from './http/json-only.js';
import { isConfirmationToken, isSlugOrId } from './http/public-params.js';
import { parseIdempotencyKey } from './idempotency/idempotency-key.js';
import { isPagePath } from './pages/page-errors.js';
import { type Choice, readForm, readOutcome, readSelections } from './pages/page-form.js';

const SLOT_ID = '01900000-0000-7000-8000-000000000001';
const CHOICE: Choice = { type: 'slot', field: `slot-${SLOT_ID}`, label: 'Morning', entity: { id: SLOT_ID } as SlotView };
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const propagator = new W3CTraceContextPropagator();

/**
 * The largest inputs: a body field of a mebibyte, a header or query string of 16 KiB, a path
 * parameter of 512 characters, each shaped to make a backtracking pattern try every start or split.
 */
const DOTS_AFTER_AT = repeatedTo(ONE_MIB, '.', 'a@', '@');
const LABELS_THEN_SPACE = repeatedTo(ONE_MIB, 'a.', 'a@', ' a');
const DIGITS = repeatedTo(ONE_MIB, '9', '+1', 'x');
const DATE_DIGITS = repeatedTo(ONE_MIB, '9', '2026-06-01T18:00:00.');
const MARKUP = repeatedTo(ONE_MIB, '<"');
const ESCAPED_QUOTES = repeatedTo(MAX_HEADER_BYTES, '\\"', '"', '');
const FAILED = repeatedTo(MAX_HEADER_BYTES, `slot-${SLOT_ID}:9999999&failed=`, 'registered=1&failed=');

const valid = (dto: new () => object, plain: object) =>
  validateSync(plainToInstance(dto, plain), { whitelist: true, forbidNonWhitelisted: true });
const refused = (call: () => unknown) => () => expect(call).toThrow();

/** The trace context a caller sent, with its trace state parsed (that happens when it is first read). */
function traceStateOf(headers: Record<string, string>): unknown {
  const extracted = propagator.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
  });
  return trace.getSpanContext(extracted)?.traceState?.serialize();
}

/** Every pattern that reads what a caller sends the gateway, each fed the largest input that reaches it. */
const ROWS: [string, () => unknown][] = [
  // Bodies: the checks of libs/contracts.
  ['isEmailAddress: a mebibyte of dots after an @', () => isEmailAddress(DOTS_AFTER_AT)],
  ['isEmailAddress: a mebibyte of dotted labels', () => isEmailAddress(LABELS_THEN_SPACE)],
  ['isPhoneNumber: a mebibyte of digits', () => isPhoneNumber(DIGITS)],
  [
    'a registration whose name, email and phone are a mebibyte each',
    () => valid(RegistrationDto, { name: LABELS_THEN_SPACE, email: DOTS_AFTER_AT, phone: DIGITS, selections: [] }),
  ],
  [
    'a signup whose dates are a mebibyte each',
    () => valid(CreateSignupDto, { title: 'Potluck', eventDate: DATE_DIGITS, signupCloseDate: DATE_DIGITS }),
  ],
  [
    'an admin key with a mebibyte of scopes',
    () => valid(AdminCreateApiKeyDto, { organizationId: 'org_1', scopes: repeatedTo(ONE_MIB, 'signups:read ', '', 'x') }),
  ],
  ['a page size of 16 KiB of digits', () => valid(PageQueryDto, { limit: repeatedTo(MAX_HEADER_BYTES, '9') })],
  // Headers and paths: the request hooks of libs/observability and the gateway's own.
  ['a path of 16 KiB of token prefixes, to log', () => loggablePath(repeatedTo(MAX_HEADER_BYTES, '/ac_'))],
  ['a path of 16 KiB of one token, to log', () => loggablePath(repeatedTo(MAX_HEADER_BYTES, '-', '/r/cnf_', '/'))],
  ['an X-Request-Id of 16 KiB', () => acceptRequestId(repeatedTo(MAX_HEADER_BYTES, 'a', '', '!'))],
  ['a logged object with a key of a mebibyte', () => redactSecrets({ [repeatedTo(ONE_MIB, 'token')]: 1 })],
  ['a traceparent of 16 KiB', () => traceStateOf({ traceparent: repeatedTo(MAX_HEADER_BYTES, ' ', `${TRACEPARENT}-`, 'x') })],
  ['a tracestate of 16 KiB', () => traceStateOf({ traceparent: TRACEPARENT, tracestate: repeatedTo(MAX_HEADER_BYTES, 'a=b ,') })],
  ['an Idempotency-Key of 16 KiB of escapes', refused(() => parseIdempotencyKey(ESCAPED_QUOTES))],
  ['a Content-Type of 16 KiB of pluses', () => isJsonContentType(repeatedTo(MAX_HEADER_BYTES, '+', 'application/', 'x'))],
  ['a page URL of 16 KiB', () => isPagePath(repeatedTo(MAX_HEADER_BYTES, '/', '/s'))],
  [
    'a slug and a confirmation token of 512 characters',
    () => isSlugOrId(repeatedTo(512, 'a-', '', '!')) || isConfirmationToken(repeatedTo(512, 'a', 'cnf_')),
  ],
  // The public pages.
  ['a page form quantity of a mebibyte of digits', () => readSelections([CHOICE], readForm({ [CHOICE.field]: DIGITS }))],
  ['a page form value of a mebibyte of markup, shown again', () => escapeHtml(readForm({ name: MARKUP }).name ?? '')],
  ['a manage-page query of 16 KiB of failures', () => readOutcome(Object.fromEntries(new URLSearchParams(FAILED).entries()))],
  [
    'a manage-page query of 16 KiB in one failure',
    () => readOutcome({ registered: '1', failed: repeatedTo(MAX_HEADER_BYTES, '9', `slot-${SLOT_ID}:`) }),
  ],
];

describe('patterns over what callers send', () => {
  it.each(ROWS)('%s takes linear time', (_label, call) => {
    expect(cpuMillisOf(call)).toBeLessThan(ADVERSARIAL_BUDGET_MS);
  });
});
