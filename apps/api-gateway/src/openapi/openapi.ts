import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type HeaderObject, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { MAX_CONDITION_LENGTH } from '#libs/contracts';
import { SCOPES } from '#libs/scopes';
import { IF_MATCH_EXTENSION, type IfMatchTarget, tagsPatchAnswer } from '../http/conditional-requests.js';
import { serveGuide } from './guide.js';

export const API_PREFIX = 'api/v1';
/** The Integrating guide (docs/integrating.md), served beside the reference. */
export const GUIDE_PATH = `/${API_PREFIX}/docs/integrating`;

/**
 * Extension set on operations whose credential is optional (their subject's catalog entry): the built document
 * turns it into `security: [{}, {bearer: []}]`, OpenAPI's way of saying "anonymous or bearer".
 */
export const OPTIONAL_CREDENTIAL = 'x-credential-optional';

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Optional credentials as `[{}, {bearer: []}]`, public operations as an explicit `security: []`. */
function declareSecurity(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as (Record<string, unknown> & { security?: unknown[] }) | undefined;
      if (!operation) continue;
      if (operation[OPTIONAL_CREDENTIAL]) {
        delete operation[OPTIONAL_CREDENTIAL];
        operation.security = [{}, { bearer: [] }];
      } else if (operation.security === undefined) {
        operation.security = [];
      }
    }
  }
  return document;
}

const MUTATING_METHODS = ['post', 'patch', 'delete'] as const;

type ProblemResponses = Record<string, { description: string; content?: unknown }>;

/** Every POST, PATCH and DELETE takes Idempotency-Key and may answer its two problems. */
function declareIdempotency(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of MUTATING_METHODS) {
      const operation = item[method] as { parameters?: unknown[]; responses: ProblemResponses } | undefined;
      if (!operation) continue;
      operation.parameters = [
        ...(operation.parameters ?? []),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          description:
            'A unique key per logical operation (a UUID). A repeat within 24 hours returns the stored answer with `Idempotent-Replayed: true`; ' +
            'the key with another request is 422 idempotency_key_reuse, a repeat while the first runs 409 idempotency_in_progress.',
        },
      ];
      for (const [status, code] of [
        ['409', 'idempotency_in_progress'],
        ['422', 'idempotency_key_reuse'],
      ] as const) {
        const response = operation.responses[status];
        if (response) response.description += `, ${code}`;
        else operation.responses[status] = { ...operation.responses['500']!, description: `Problem: ${code}` };
      }
    }
  }
  return document;
}

type HeaderRef = { $ref: string };

/** The response headers every route may send, as reusable components. */
const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      'The request id: the caller’s own X-Request-Id when valid, otherwise one made by the server. Quote it when asking for help.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The rate limit policies of this call (draft-ietf-httpapi-ratelimit-headers), e.g. `"credential";q=600;w=60`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'The policy with the least remaining: its name, the calls left and the seconds to its reset, e.g. `"credential";r=599;t=60`.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'The quota of the policy with the least remaining.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'The calls left in that policy’s window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets, in Unix seconds.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before calling again.', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} satisfies Record<string, HeaderObject>;

type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

const headerRefs = (names: ResponseHeaderName[]): Record<string, HeaderRef> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const EVERY_RESPONSE: ResponseHeaderName[] = [
  'X-Request-Id',
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * Every response of every route carries the request id and the rate limit fields (every route of
 * the document is metered); 429 and 503 carry Retry-After, and the answers a mutation may replay
 * Idempotent-Replayed.
 */
function declareResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...RESPONSE_HEADERS } };
  for (const item of Object.values(document.paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as { responses: Record<string, { headers?: Record<string, unknown> }> } | undefined;
      if (!operation) continue;
      const mutation = (MUTATING_METHODS as readonly string[]).includes(method);
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = [...EVERY_RESPONSE];
        if (status === '429' || status === '503') names.push('Retry-After');
        if (mutation && !status.startsWith('5') && status !== '429') names.push('Idempotent-Replayed');
        response.headers = { ...response.headers, ...headerRefs(names) };
      }
    }
  }
  return document;
}

const ETAG_HEADER = {
  ETag: {
    description:
      'The strong entity-tag of this representation: send it in If-None-Match to read again cheaply, in If-Match to write only if unchanged.',
    schema: { type: 'string' },
  },
};

const IF_MATCH_CHECKED: Record<IfMatchTarget, string> = {
  resource:
    'Write only if the resource is unchanged: `*` or a list of strong ETags from its GET (or from the answer of its PATCH). Compared in ' +
    'the transaction that writes, with the resource locked: when no tag is current the answer is 412 precondition_failed and nothing ' +
    'changes. Malformed: 422 validation_failed on the header.',
  signup:
    "Write only if the signup is unchanged: `*` or a list of strong ETags from GET /signups/{id} (the signup's representation holds its " +
    'slots and items). Compared in the transaction that writes, with the signup locked: when no tag is current the answer is 412 ' +
    'precondition_failed and nothing changes. Malformed: 422 validation_failed on the header.',
  participant:
    'Write only if the participant is unchanged: `*` or a list of strong ETags from GET /signups/{id}/participants/{participantId} ' +
    "(for a waitlist entry, of the entry's participantId; or from the answer of a PATCH of the participant or its attendance). " +
    'Compared in the transaction that writes, with the signup and the participant locked: when no tag is current the answer is 412 ' +
    'precondition_failed and nothing changes. Malformed: 422 validation_failed on the header.',
  registration:
    'Write only if the registration is unchanged: `*` or a list of strong ETags from GET /registrations/{confirmationToken} (its ' +
    'representation holds the waitlist entries; or from the answer of its PATCH). Compared in the transaction that writes, with the ' +
    'signup and the participant locked: when no tag is current the answer is 412 precondition_failed and nothing changes. Malformed: ' +
    '422 validation_failed on the header.',
};
const IF_MATCH_REFUSED =
  'Not evaluated by this operation: any If-Match is 412 precondition_failed and nothing changes (malformed: 422 validation_failed).';

function addProblem(responses: ProblemResponses, status: string, code: string): void {
  const response = responses[status];
  if (response) {
    if (!response.description.includes(code)) response.description += `, ${code}`;
  } else {
    responses[status] = { ...responses['500']!, description: `Problem: ${code}` };
  }
}

type ConditionalOperation = {
  parameters?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
  [IF_MATCH_EXTENSION]?: IfMatchTarget;
};

/**
 * Conditional requests (RFC 9110 §13): every JSON GET answers ETag and honours If-None-Match
 * with 304; every PATCH and DELETE documents If-Match and 412, checked where the route is marked
 * IfMatchChecked (and then a PATCH answers the new ETag), refused elsewhere; a POST may answer 422
 * for a malformed If-Match, which it otherwise ignores.
 */
function declareConditionalRequests(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    const read = item.get as ConditionalOperation | undefined;
    if (read?.responses['200']?.content?.['application/json']) {
      read.parameters = [
        ...(read.parameters ?? []),
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: MAX_CONDITION_LENGTH },
          description:
            '`*` or a list of ETags (weak comparison): when one is the current ETag the answer is 304 with no body. Malformed: 422 validation_failed.',
        },
      ];
      read.responses['200'].headers = { ...read.responses['200'].headers, ...ETAG_HEADER };
      read.responses['304'] = { description: 'Not Modified: If-None-Match names the current ETag; no body', headers: ETAG_HEADER };
      addProblem(read.responses as ProblemResponses, '422', 'validation_failed');
    }
    for (const method of MUTATING_METHODS) {
      const operation = item[method] as ConditionalOperation | undefined;
      if (!operation) continue;
      addProblem(operation.responses as ProblemResponses, '422', 'validation_failed');
      if (method === 'post') continue;
      const checked = operation[IF_MATCH_EXTENSION];
      delete operation[IF_MATCH_EXTENSION];
      operation.parameters = [
        ...(operation.parameters ?? []),
        {
          name: 'If-Match',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: MAX_CONDITION_LENGTH },
          description: checked ? IF_MATCH_CHECKED[checked] : IF_MATCH_REFUSED,
        },
      ];
      addProblem(operation.responses as ProblemResponses, '412', 'precondition_failed');
      const ok = operation.responses['200'];
      if (tagsPatchAnswer(checked) && method === 'patch' && ok) ok.headers = { ...ok.headers, ...ETAG_HEADER };
    }
  }
  return document;
}

/** OpenAPI 3.1 of the REST surface, generated from the controllers and the contracts DTOs. */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Signup platform REST API')
    .setDescription(
      'Signup sheets with slots, items and participants. Authenticate with `Authorization: Bearer <API key or OAuth access token>`. ' +
        'Errors are application/problem+json; switch on `code`.\n\n' +
        `Keeping a copy in sync, retrying safely, webhooks and the event log, conditional requests, exports and the TypeScript client: [the Integrating guide](${GUIDE_PATH}).\n\nScopes:\n` +
        Object.entries(SCOPES)
          .map(([scope, text]) => `- \`${scope}\`: ${text}`)
          .join('\n'),
    )
    .setVersion('1')
    .addServer(new URL(publicBaseUrl).origin)
    .setExternalDoc('The Integrating guide', `${new URL(publicBaseUrl).origin}${GUIDE_PATH}`)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (sgn_test_… / sgn_live_…) or an OAuth access token' })
    .build();
  return declareResponseHeaders(declareConditionalRequests(declareIdempotency(declareSecurity(SwaggerModule.createDocument(app, config)))));
}

/** Serves the document at /api/v1/openapi.json, a docs page at /api/v1/docs and the Integrating guide. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  serveGuide(app.getHttpAdapter().getInstance(), GUIDE_PATH);
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    raw: ['json'],
    customSiteTitle: 'Signup platform API',
  });
}
