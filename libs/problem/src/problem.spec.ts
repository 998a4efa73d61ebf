import { HttpException, NotFoundException } from '@nestjs/common';
import { codeFromSlug, PROBLEM_CATALOG, PROBLEM_CODES, problemType } from './catalog.js';
import { toProblem } from './problem.filter.js';
import { toProblemBody } from './problem-body.js';
import { asProblem, ProblemError } from './problem-error.js';
import { renderProblemPage } from './problem-page.js';

describe('problem catalog', () => {
  it('holds the seventeen codes of the contract, cursor_expired and precondition_failed', () => {
    expect(PROBLEM_CODES.sort()).toEqual([
      'bad_request',
      'conflict',
      'cursor_expired',
      'daily_ceiling_exceeded',
      'forbidden',
      'idempotency_in_progress',
      'idempotency_key_reuse',
      'internal_error',
      'invalid_credentials',
      'malformed_credentials',
      'missing_credentials',
      'not_found',
      'precondition_failed',
      'rate_limited',
      'revoked_credentials',
      'scope_required',
      'upgrade_required',
      'upstream_unavailable',
      'validation_failed',
    ]);
  });

  it('maps each code to the status of the contract', () => {
    const statuses = Object.fromEntries(PROBLEM_CODES.map((c) => [c, PROBLEM_CATALOG[c].status]));
    expect(statuses).toMatchObject({
      missing_credentials: 401,
      malformed_credentials: 401,
      invalid_credentials: 401,
      revoked_credentials: 401,
      scope_required: 403,
      forbidden: 403,
      upgrade_required: 402,
      not_found: 404,
      conflict: 409,
      idempotency_in_progress: 409,
      cursor_expired: 410,
      bad_request: 400,
      validation_failed: 422,
      idempotency_key_reuse: 422,
      precondition_failed: 412,
      rate_limited: 429,
      daily_ceiling_exceeded: 429,
      internal_error: 500,
      upstream_unavailable: 502,
    });
  });

  it('derives the type URI from the code with hyphens', () => {
    expect(problemType('http://localhost:3000/problems/', 'validation_failed')).toBe('http://localhost:3000/problems/validation-failed');
    expect(codeFromSlug('idempotency-key-reuse')).toBe('idempotency_key_reuse');
    expect(codeFromSlug('nope')).toBeUndefined();
    expect(codeFromSlug('not_found')).toBeUndefined();
  });
});

describe('problem bodies', () => {
  it('renders code, status, errors and the request id as instance', () => {
    const err = ProblemError.validation([{ path: 'selections.0.id', message: 'Invalid uuid' }]);
    expect(toProblemBody(err, 'http://x/problems', 'req-1')).toEqual({
      type: 'http://x/problems/validation-failed',
      title: 'Validation failed',
      status: 422,
      code: 'validation_failed',
      detail: 'The request failed validation.',
      instance: 'urn:request:req-1',
      errors: [{ path: 'selections.0.id', message: 'Invalid uuid' }],
    });
  });

  it('survives the bus round trip with status override, cause and headers', () => {
    const err = new ProblemError('upstream_unavailable', 'timed out', { status: 504, headers: { 'retry-after': '3' } });
    const back = ProblemError.fromWire(JSON.parse(JSON.stringify(err.toWire())));
    expect(back).toMatchObject({ code: 'upstream_unavailable', status: 504, detail: 'timed out', headers: { 'retry-after': '3' } });
  });

  it('turns unknown failures into internal_error without their text', () => {
    const problem = asProblem(new Error('relation "signups" does not exist'));
    expect(problem.code).toBe('internal_error');
    expect(toProblemBody(problem, 'http://x/problems').detail).not.toContain('relation');
  });

  it('turns an unknown wire code into internal_error', () => {
    expect(ProblemError.fromWire({ code: 'teapot' as never }).code).toBe('internal_error');
  });

  it('maps framework errors: unknown route, bad JSON, oversize body', () => {
    expect(toProblem(new NotFoundException()).code).toBe('not_found');
    expect(toProblem({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' })).toMatchObject({ code: 'validation_failed', status: 422 });
    expect(toProblem({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }).code).toBe('validation_failed');
    expect(toProblem(new HttpException('boom', 503)).code).toBe('internal_error');
  });

  it('renders a human page per code', () => {
    expect(renderProblemPage('scope_required')).toContain('<code>scope_required</code>');
  });
});
