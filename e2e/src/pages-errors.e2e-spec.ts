import type { RegistrationResultView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

/** The pages' refusals and failures on the real stack: always HTML, and the state is checked before the form. */
describe('pages that refuse', () => {
  let tenant: Tenant;
  let origin: string;

  beforeAll(async () => {
    origin = stackInfo().gatewayUrl;
    tenant = await newTenant('pro');
  });

  const post = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': type }, body, redirect: 'manual' });

  const expectHtml = async (res: Response, status: number): Promise<string> => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    return res.text();
  };

  const register = async (signupId: string, body: object): Promise<string> => {
    const res = await call<RegistrationResultView>(`/signups/${signupId}/participants`, { body });
    expect(res.status).toBe(201);
    return res.body.confirmationToken!;
  };

  describe('a signup or registration that takes no change says so before the form is read', () => {
    it('answers an incomplete form on a closed signup with 400 and why, not 422', async () => {
      const { signup } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 3 }] });
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      const page = await expectHtml(await post(`/s/${signup.slug}`, 'name=&email=not-an-email'), 400);
      expect(page).toContain('This signup is closed.');
      expect(page).not.toContain('Invalid email');
      expect(page).not.toContain('<form');
    });

    it('says a full signup takes no registration, and stores nothing', async () => {
      const { signup } = await newSignup(tenant.key, { fields: { maxParticipants: 1 } });
      await register(signup.id, person());
      expect(await expectHtml(await post(`/s/${signup.slug}`, 'name=Ana&email=ana%40example.com'), 400)).toContain('This signup is full');
      expect((await call<{ participantCount: number }>(`/signups/${signup.id}`, { key: tenant.key })).body.participantCount).toBe(1);
    });

    it('answers an incomplete change of a registration that can no longer change with 400 and why, not 422', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 3 }] });
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      const page = await expectHtml(await post(`/r/${token}`, `name=&slot-${slots[0]!.id}=two`), 400);
      expect(page).toContain('This signup is closed, so your registration can no longer be changed or canceled here.');
      expect(page).not.toContain('Please check the form');
    });
  });

  describe('the manage page after a registration', () => {
    it('ignores a malformed failure, and one not asked for with registered=1', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 3 }] });
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const odd = await expectHtml(await fetch(`${origin}/r/${token}?registered=1&failed=%3Cscript%3E&failed=slot-x%3A1`), 200);
      expect(odd).not.toContain('Could not be reserved');
      expect(odd).not.toMatch(/<script/i);
      const alone = await expectHtml(await fetch(`${origin}/r/${token}?failed=slot-${slots[0]!.id}%3A3`), 200);
      expect(alone).not.toContain('Could not be reserved');
    });
  });

  describe('never JSON', () => {
    it.each([
      [
        'a multipart body',
        'signup',
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--x--\r\n',
        'multipart/form-data; boundary=x',
        422,
      ],
      ['a malformed JSON body', 'signup', '{"name":', 'application/json', 422],
      ['a body of an unknown type to cancel', 'cancel', 'x', 'text/csv', 422],
    ])('answers %s with the HTML error page and the status the API would give', async (_, target, body, type, status) => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 3 }] });
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const path = target === 'signup' ? `/s/${signup.slug}` : `/r/${token}/cancel`;
      expect(await expectHtml(await post(path, body, type), status)).toContain('The form could not be read.');
      expect((await call(`/registrations/${token}`)).status).toBe(200);
    });

    it('answers an unknown route or method under /s/ and /r/ with the HTML not found page', async () => {
      const { signup } = await newSignup(tenant.key);
      const token = await register(signup.id, person());
      for (const [method, path] of [
        ['GET', `/r/${token}/cancel`],
        ['PUT', `/s/${signup.slug}`],
        ['GET', `/s/${signup.slug}/more`],
        ['DELETE', `/r/${token}`],
        ['GET', '/s/'],
      ]) {
        const res = await fetch(`${origin}${path}`, { method: method! });
        expect({ method, path, status: res.status, type: res.headers.get('content-type') }).toEqual({
          method,
          path,
          status: 404,
          type: 'text/html; charset=utf-8',
        });
        expect(await res.text()).toContain('<h1>Not found</h1>');
      }
    });

    it('answers a malformed URL and a too long path with an HTML page, while the REST API keeps problem+json', async () => {
      expect(await expectHtml(await fetch(`${origin}/s/%E0%A4%A`), 422)).toContain('This address is not valid.');
      expect(await expectHtml(await fetch(`${origin}/r/${'a'.repeat(600)}`), 422)).toContain('This address is not valid.');
      const api = await fetch(`${origin}/api/v1/public/signups/%E0%A4%A`);
      expect(api.headers.get('content-type')).toContain('application/problem+json');
    });
  });

  describe('personal data', () => {
    it('keeps no-store and no referrer on a refused token', async () => {
      const res = await call(`/registrations/cnf_${'Z'.repeat(32)}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    });
  });
});
