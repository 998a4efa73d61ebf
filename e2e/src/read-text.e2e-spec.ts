import { createHash } from 'node:crypto';
import type { SignupView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { type OpenApiDocument, schemaMismatches } from './support/schema.js';
import { newSignup } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

/** The read routes that answer the owning service's JSON text as it crossed the bus (Bus.requestJson), and their schemas. */
const TEXT_ROUTES = [
  { route: 'GET /signups/{id}', schema: 'SignupView', path: (id: string) => `/signups/${id}` },
  { route: 'GET /signups', schema: 'SignupPageView', path: () => '/signups?limit=5' },
];

describe("reads answered with the owning service's JSON text, unparsed", () => {
  let tenant: Tenant;
  let signup: SignupView;
  let document: OpenApiDocument;

  beforeAll(async () => {
    tenant = await newTenant('pro');
    // Every optional field set, so each is compared with its schema.
    ({ signup } = await newSignup(tenant.key, {
      fields: {
        description: 'Bring a dish',
        location: 'Park',
        maxParticipants: 30,
        signupCloseDate: '2027-05-31T18:00:00.000Z',
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
        questions: [{ type: 'single_choice', label: 'Diet', required: true, options: ['Vegan', 'Any'] }],
      },
      slots: [{ title: 'Setup', capacity: 3, startTime: '2027-06-01T16:00:00.000Z', endTime: '2027-06-01T17:00:00.000Z' }],
      items: [{ name: 'Salad', quantityNeeded: 2 }],
    }));
    document = (await call<OpenApiDocument>('/openapi.json')).body;
  });

  const read = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${stackInfo().baseUrl}${path}`, { headers: { authorization: `Bearer ${tenant.key}`, ...headers } });

  it.each(TEXT_ROUTES)('$route: the schema field by field, compact JSON, and the ETag of the text as sent', async ({ schema, path }) => {
    const res = await read(path(signup.id));
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(text) as unknown;
    expect(text).toBe(JSON.stringify(body));
    expect(schemaMismatches(document, schema, body)).toEqual([]);
    const etag = `"${createHash('sha256').update(text).digest('base64url')}"`;
    expect(res.headers.get('etag')).toBe(etag);
    expect((await read(path(signup.id), { 'if-none-match': etag })).status).toBe(304);
  });

  it('GET /signups/{id}: its ETag is the one the service checks If-Match against, and a problem is still problem+json', async () => {
    const res = await read(`/signups/${signup.id}`);
    const edited = await call<SignupView>(`/signups/${signup.id}`, {
      key: tenant.key,
      method: 'PATCH',
      body: { location: 'Town hall' },
      headers: { 'if-match': res.headers.get('etag')! },
    });
    expect(edited.status).toBe(200);
    const missing = await read('/signups/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});
