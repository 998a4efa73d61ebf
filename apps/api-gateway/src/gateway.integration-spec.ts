import type { OpenAPIObject } from '@nestjs/swagger';
import type { ProblemBody } from '#libs/problem';
import { createTestStack, type TestStack } from '#libs/testing';
import type { RunningApp } from '#libs/runtime';
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
    expect(await res.json()).toMatchObject({ code: 'missing_credentials', status: 401, type: 'http://localhost:3000/problems/missing-credentials' });
  });

  it.each(['Basic abc', 'Bearer', 'Bearersgn_test_x', 'Bearer  sgn_test_x'])('answers Authorization %j with malformed_credentials', async (header) => {
    const res = await fetch(`${gateway.url}/api/v1/signups`, { headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as ProblemBody).code).toBe('malformed_credentials');
  });

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

  it('serves OpenAPI 3.1 generated from the DTOs, with scopes and problem responses', async () => {
    const res = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenAPIObject;
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/api/v1/signups']!.post as unknown as Record<string, unknown> & { responses: Record<string, { content: Record<string, unknown> }> };
    expect(create['x-required-scope']).toBe('signups:write');
    expect(create.responses['422'].content['application/problem+json']).toBeDefined();
    expect(doc.components?.schemas?.CreateSignupDto).toMatchObject({ required: ['title', 'eventDate'], properties: { title: { minLength: 1 } } });
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item as Record<string, { security?: unknown }>)) {
        expect({ path, security: op.security }).toEqual({ path, security: [{ bearer: [] }] });
      }
    }
  });

  it('refuses a non-JSON body on the REST API before reading credentials', async () => {
    const res = await fetch(`${gateway.url}/api/v1/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=x&eventDate=2027-01-01T00:00:00Z',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body', message: 'Content-Type must be application/json' }] });
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
