import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SCOPES } from '#libs/scopes';
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
  return declareIdempotency(declareSecurity(SwaggerModule.createDocument(app, config)));
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
