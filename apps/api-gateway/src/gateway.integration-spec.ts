import type { OpenAPIObject } from '@nestjs/swagger';
import type { ProblemBody } from '#libs/problem';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, type TestStack } from '#libs/testing';
import { STYLESHEET, STYLESHEET_PATH } from '#libs/web';
import { apiGatewayApp } from './index.js';

describe('api-gateway on its own', () => {
  let stack: TestStack;
  let gateway: RunningApp;

  beforeAll(async () => {
    stack = await createTestStack('gateway', { env: { PROBLEM_BASE: 'http://localhost:3000/problems' } });
    gateway = await stack.boot(apiGatewayApp);
  });

  afterAll(() => stack.close());

  it('answers a request without Authorization with missing_credentials', async () => {
    const res = await fetch(`${gateway.url}/api/v1/me`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'missing_credentials',
      status: 401,
      type: 'http://localhost:3000/problems/missing-credentials',
    });
  });

  it.each(['Basic abc', 'Bearer', 'Bearersgn_test_x', 'Bearer  sgn_test_x'])(
    'answers Authorization %j with malformed_credentials',
    async (header) => {
      const res = await fetch(`${gateway.url}/api/v1/signups`, { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as ProblemBody).code).toBe('malformed_credentials');
    },
  );

  it('answers a token that is not an API key with invalid_credentials', async () => {
    const res = await fetch(`${gateway.url}/api/v1/me`, { headers: { authorization: 'Bearer sgn_test_tooShort' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as ProblemBody).code).toBe('invalid_credentials');
  });

  it('answers unknown routes with a not_found problem', async () => {
    const res = await fetch(`${gateway.url}/api/v1/nowhere`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as ProblemBody).code).toBe('not_found');
  });

  it('serves a human page for each problem type and 404 for an unknown one', async () => {
    const page = await fetch(`${gateway.url}/problems/validation-failed`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('validation_failed');
    expect((await fetch(`${gateway.url}/problems/teapot`)).status).toBe(404);
  });

  it("gives the problem pages the layout, which links the stylesheet, and the pages' CSP", async () => {
    const page = await fetch(`${gateway.url}/problems/validation-failed`);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'self'; /);
    const text = await page.text();
    expect(text).toContain(`<link rel="stylesheet" href="${STYLESHEET_PATH}">`);
    expect(text).not.toMatch(/<style|style=|<script/i);
  });

  it('serves the shared stylesheet at its hashed address, cached for a year and unmetered, and 404 at any other asset address', async () => {
    const res = await fetch(`${gateway.url}${STYLESHEET_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(await res.text()).toBe(STYLESHEET);
    const unknown = await fetch(`${gateway.url}/assets/site-0000000000000000.css`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect((await fetch(`${gateway.url}/api/v1${STYLESHEET_PATH}`)).status).toBe(404);
  });

  it('serves OpenAPI 3.1 generated from the DTOs, with scopes and problem responses', async () => {
    const res = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenAPIObject;
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/api/v1/signups']!.post as unknown as Record<string, unknown> & {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(create['x-required-scope']).toBe('signups:write');
    expect(create.responses['422'].content['application/problem+json']).toBeDefined();
    expect(doc.components?.schemas?.CreateSignupDto).toMatchObject({
      required: ['title', 'eventDate'],
      properties: { title: { minLength: 1 } },
    });
  });

  it("documents a signup's reminder lead on its create and update bodies, as whole hours from 0 to 336, and always on the signup", async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    const lead = { type: 'integer', minimum: 0, maximum: 336 };
    for (const name of ['CreateSignupDto', 'UpdateSignupDto']) {
      expect(doc.components?.schemas?.[name]).toMatchObject({ properties: { reminderHoursBefore: lead } });
      expect(doc.components?.schemas?.[name]).not.toMatchObject({ required: expect.arrayContaining(['reminderHoursBefore']) });
    }
    expect(doc.components?.schemas?.SignupView).toMatchObject({
      required: expect.arrayContaining(['reminderHoursBefore']),
      properties: { reminderHoursBefore: lead },
    });
  });

  it('resolves every schema reference, the arrays of nested DTOs (registration selections, bulk slots) included', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]*)"/g)].map((match) => match[1]!);
    expect(refs).toEqual(expect.arrayContaining(['SelectionDto', 'CreateSlotDto']));
    expect(refs.filter((name) => !doc.components?.schemas?.[name])).toEqual([]);
  });

  it('declares bearer security on credentialed operations, none on public ones, and optional on registration', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    const publicPaths = new Set([
      '/api/v1/public/signups/{slugOrId}',
      '/api/v1/registrations/{confirmationToken}',
      '/api/v1/registrations/{confirmationToken}/waitlist/{entryId}/accept',
      '/api/v1/registrations/{confirmationToken}/waitlist/{entryId}',
    ]);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, { security?: unknown }>)) {
        const expected = publicPaths.has(path)
          ? []
          : path === '/api/v1/signups/{id}/participants' && method === 'post'
            ? [{}, { bearer: [] }]
            : [{ bearer: [] }];
        expect({ path, method, security: op.security }).toEqual({ path, method, security: expected });
      }
    }
  });

  it('documents the event log with its queries, its scope, 409 with Retry-After and 410 cursor_expired, and updated_since on the signup and participant lists', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    type Op = {
      parameters: { name: string; in: string; schema: Record<string, unknown> }[];
      responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
      'x-required-scope'?: string;
      'x-api-key-only'?: boolean;
    };
    const events = doc.paths['/api/v1/events']!.get as unknown as Op;
    expect(
      events.parameters
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['after', 'created_gte', 'created_lt', 'cursor', 'limit', 'order', 'type'].sort());
    expect(events.responses['410']!.description).toBe('Problem: cursor_expired');
    expect(events.responses['403']!.description).toBe('Problem: forbidden, scope_required');
    expect(events).toMatchObject({ 'x-required-scope': 'participants:read', 'x-api-key-only': true });
    expect(events.responses['409']!.description).toBe('Problem: conflict');
    expect(events.responses['409']!.headers).toHaveProperty('Retry-After');
    expect(doc.components?.schemas?.EventLogPageView).toBeDefined();
    for (const path of ['/api/v1/signups', '/api/v1/signups/{id}/participants']) {
      const list = doc.paths[path]!.get as unknown as Op;
      expect(list.parameters.find((p) => p.name === 'updated_since')).toMatchObject({ in: 'query', schema: { format: 'date-time' } });
    }
  });

  describe('slots, items, participants, analytics, public and registration routes', () => {
    type Operation = {
      'x-required-scope'?: string;
      responses: Record<string, { description: string; content?: Record<string, unknown> }>;
      parameters?: { name: string; schema: unknown }[];
    };
    let doc: OpenAPIObject;
    const operation = (path: string, method: string) => (doc.paths[`/api/v1${path}`] as Record<string, Operation> | undefined)?.[method];
    /** Every problem code an operation documents, from its `Problem: a, b` responses. */
    const problemCodes = (op: Operation) =>
      Object.entries(op.responses)
        .filter(([, r]) => r.description.startsWith('Problem: ') && r.content?.['application/problem+json'])
        .flatMap(([, r]) => r.description.slice('Problem: '.length).split(', '))
        .sort();

    beforeAll(async () => {
      doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    });

    const CREDENTIALS = ['invalid_credentials', 'malformed_credentials', 'missing_credentials', 'revoked_credentials'];
    /** What every API route can answer, and every POST, PATCH and DELETE besides. */
    const EVERY_ROUTE = ['rate_limited', 'internal_error'];
    const MUTATION = ['idempotency_in_progress', 'idempotency_key_reuse'];
    /** A malformed If-None-Match or If-Match (every JSON GET and every write), and If-Match on a PATCH or DELETE. */
    const conditions = (method: string) =>
      method === 'patch' || method === 'delete' ? ['precondition_failed', 'validation_failed'] : ['validation_failed'];
    const expected = (method: string, codes: string[]) =>
      [...new Set([...codes, ...EVERY_ROUTE, ...conditions(method), ...(method === 'get' ? [] : MUTATION)])].sort();
    it.each([
      [
        'post',
        '/signups/{id}/slots',
        'signups:write',
        '201',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      ['get', '/signups/{id}/slots', 'signups:read', '200', ['scope_required', 'forbidden', 'not_found', 'validation_failed']],
      [
        'patch',
        '/signups/{id}/slots/{slotId}',
        'signups:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      [
        'delete',
        '/signups/{id}/slots/{slotId}',
        'signups:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      [
        'post',
        '/signups/{id}/items',
        'signups:write',
        '201',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      ['get', '/signups/{id}/items', 'signups:read', '200', ['scope_required', 'forbidden', 'not_found', 'validation_failed']],
      [
        'patch',
        '/signups/{id}/items/{itemId}',
        'signups:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      [
        'delete',
        '/signups/{id}/items/{itemId}',
        'signups:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      ['get', '/signups/{id}/participants', 'participants:read', '200', ['scope_required', 'forbidden', 'not_found', 'validation_failed']],
      [
        'patch',
        '/signups/{id}/participants/{participantId}',
        'participants:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      [
        'delete',
        '/signups/{id}/participants/{participantId}',
        'participants:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'validation_failed'],
      ],
      ['get', '/signups/{id}/analytics', 'analytics:read', '200', ['scope_required', 'forbidden', 'not_found', 'validation_failed']],
      ['get', '/signups/{id}/waitlist', 'participants:read', '200', ['scope_required', 'forbidden', 'not_found', 'validation_failed']],
      [
        'post',
        '/signups/{id}/waitlist/{entryId}/promote',
        'participants:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'],
      ],
      [
        'delete',
        '/signups/{id}/waitlist/{entryId}',
        'participants:write',
        '200',
        ['scope_required', 'forbidden', 'not_found', 'validation_failed'],
      ],
    ])('documents %s %s with scope %s, its answer and its problems', (method, path, scope, success, codes) => {
      const op = operation(path, method)!;
      expect(op).toBeDefined();
      expect(op['x-required-scope']).toBe(scope);
      expect(op.responses[success]).toBeDefined();
      expect(problemCodes(op)).toEqual(expected(method, [...CREDENTIALS, ...codes]));
    });

    it('documents registration: no credential needed, a bad one refused (401), 201 stored, 200 nothing stored, and its five problems', () => {
      const op = operation('/signups/{id}/participants', 'post')!;
      expect(op['x-required-scope']).toBeUndefined();
      expect(op.responses['201']).toBeDefined();
      expect(op.responses['200']).toBeDefined();
      expect(problemCodes(op)).toEqual([
        'bad_request',
        'idempotency_in_progress',
        'idempotency_key_reuse',
        'internal_error',
        'invalid_credentials',
        'malformed_credentials',
        'not_found',
        'rate_limited',
        'revoked_credentials',
        'validation_failed',
      ]);
      expect(op.responses['401']!.description).toBe('Problem: malformed_credentials, invalid_credentials, revoked_credentials');
      expect(op.responses['429']!.description).toBe('Problem: rate_limited');
    });

    it('describes what a credential does to registration, and the case of the ids it answers', () => {
      const { description } = doc.paths['/api/v1/signups/{id}/participants']!.post!;
      expect(description).toContain('selects the rate tier');
      expect(description).toContain('narrows the call to its own mode: a live key sees no sandbox signup');
      expect(description).toContain('its own organization hears 400 for its draft rather than 404');
      expect(description).toContain('come back in canonical lower case');
    });

    it.each([
      ['get', '/public/signups/{slugOrId}', ['not_found']],
      ['get', '/registrations/{confirmationToken}', ['not_found']],
      ['patch', '/registrations/{confirmationToken}', ['not_found', 'bad_request', 'conflict', 'validation_failed']],
      ['delete', '/registrations/{confirmationToken}', ['not_found', 'bad_request']],
      [
        'post',
        '/registrations/{confirmationToken}/waitlist/{entryId}/accept',
        ['not_found', 'bad_request', 'conflict', 'validation_failed'],
      ],
      ['delete', '/registrations/{confirmationToken}/waitlist/{entryId}', ['not_found', 'bad_request', 'validation_failed']],
    ])('documents public %s %s and its problems', (method, path, codes) => {
      const op = operation(path, method)!;
      expect(op.responses['200']).toBeDefined();
      expect(problemCodes(op)).toEqual(expected(method, codes));
    });

    it('documents Idempotency-Key on every POST, PATCH and DELETE, and the daily cap of POST /signups', () => {
      const create = operation('/signups', 'post')!;
      expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
      expect(problemCodes(create)).toContain('daily_ceiling_exceeded');
      expect(operation('/signups', 'get')!.parameters!.some((p) => p.name === 'Idempotency-Key')).toBe(false);
    });

    it('documents the status filter of the participant list and the filters of the waitlist', () => {
      const query = (path: string) =>
        Object.fromEntries(operation(path, 'get')!.parameters!.map((p) => [p.name, p.schema as Record<string, unknown>]));
      expect(query('/signups/{id}/participants').status).toMatchObject({
        enum: ['confirmed', 'waitlisted', 'offered', 'cancelled', 'attended', 'no_show'],
      });
      expect(query('/signups/{id}/waitlist')).toMatchObject({
        limit: { type: 'integer' },
        cursor: { type: 'string' },
        type: { enum: ['signup', 'slot', 'item'] },
        targetId: { format: 'uuid' },
      });
    });

    it('documents bulk creation as one DTO or the other', () => {
      const body = (doc.paths['/api/v1/signups/{id}/slots']!.post as { requestBody: { content: Record<string, { schema: unknown }> } })
        .requestBody;
      expect(body.content['application/json']!.schema).toEqual({
        oneOf: [{ $ref: '#/components/schemas/CreateSlotDto' }, { $ref: '#/components/schemas/CreateSlotsDto' }],
      });
      expect(doc.components?.schemas?.CreateItemsDto).toBeDefined();
    });

    it('documents the confirmation token pattern and leaves the HTML pages out', () => {
      const params = operation('/registrations/{confirmationToken}', 'get')!.parameters!;
      expect(params.find((p) => p.name === 'confirmationToken')?.schema).toEqual({ type: 'string', pattern: '^cnf_[0-9A-Za-z]{32}$' });
      expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
    });
  });

  it('refuses a non-JSON body on the REST API before reading credentials', async () => {
    const res = await fetch(`${gateway.url}/api/v1/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=x&eventDate=2027-01-01T00:00:00Z',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body', message: 'Content-Type must be application/json' }],
    });
  });

  it('refuses a body nested thousands deep as a 422 on body before reading credentials', async () => {
    const res = await fetch(`${gateway.url}/api/v1/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"title":${'['.repeat(2000)}${']'.repeat(2000)},"eventDate":"2027-01-01T00:00:00Z"}`,
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body', message: 'Nested too deeply: at most 32 levels' }],
    });
  });

  it('documents livemode on webhook endpoints', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    expect(doc.components?.schemas?.WebhookEndpointView).toMatchObject({
      required: expect.arrayContaining(['livemode']),
      properties: { livemode: { type: 'boolean' } },
    });
  });

  it('documents path ids as uuids', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as OpenAPIObject;
    const params = (doc.paths['/api/v1/signups/{id}']!.get as { parameters: { name: string; schema: unknown }[] }).parameters;
    expect(params.find((p) => p.name === 'id')?.schema).toEqual({ type: 'string', format: 'uuid' });
  });

  it('serves a docs page', async () => {
    const res = await fetch(`${gateway.url}/api/v1/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
