import type { AttendanceView, HoursReportView, ParticipantView, RegistrationResultView, RegistrationView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';

const MISSING_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';

describe('attendance over REST', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  /** A published signup with a slot of two hours, one person registered for it; answers the ids and the confirmation token. */
  async function registered(fields: Record<string, unknown> = {}) {
    const { signup, slots } = await newSignup(tenant.key, {
      fields,
      slots: [{ title: 'Morning', capacity: 3, startTime: '2027-06-01T09:00:00Z', endTime: '2027-06-01T11:00:00Z' }],
    });
    const body = person([{ type: 'slot', id: slots[0]!.id }]);
    const result = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body });
    expect(result.status).toBe(201);
    return {
      signupId: signup.id,
      participantId: result.body.confirmed[0]!.participantId,
      token: result.body.confirmationToken!,
      email: body.email,
    };
  }

  const at = (signupId: string, participantId: string, action: string) => `/signups/${signupId}/participants/${participantId}/${action}`;

  it('checks a participant in with the hours of its slot, without a body, and answers it with checkedInAt and hoursServed', async () => {
    const { signupId, participantId } = await registered();
    const res = await call<ParticipantView>(at(signupId, participantId, 'check-in'), { key: tenant.key, method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: participantId,
      status: 'attended',
      checkedInAt: expect.any(String),
      noShowAt: null,
      hoursServed: 2,
    });
    const listed = await call<{ data: ParticipantView[] }>(`/signups/${signupId}/participants`, { key: tenant.key });
    expect(listed.body.data.map((p) => [p.id, p.status, p.hoursServed])).toEqual([[participantId, 'attended', 2]]);
  });

  it('takes the hours at check-in and changes them later, and undoes the check-in', async () => {
    const { signupId, participantId } = await registered();
    const checked = await call<ParticipantView>(at(signupId, participantId, 'check-in'), { key: tenant.key, body: { hoursServed: 1.5 } });
    expect(checked.body).toMatchObject({ status: 'attended', hoursServed: 1.5 });
    const patched = await call<ParticipantView>(at(signupId, participantId, 'attendance'), {
      key: tenant.key,
      method: 'PATCH',
      body: { hoursServed: 3.25 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ hoursServed: 3.25, checkedInAt: checked.body.checkedInAt });
    const undone = await call<ParticipantView>(at(signupId, participantId, 'check-in'), { key: tenant.key, method: 'DELETE' });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'confirmed', checkedInAt: null, hoursServed: null });
  });

  it('marks a no-show and undoes it', async () => {
    const { signupId, participantId } = await registered();
    const marked = await call<ParticipantView>(at(signupId, participantId, 'no-show'), { key: tenant.key, method: 'POST' });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ status: 'no_show', noShowAt: expect.any(String), hoursServed: null });
    const undone = await call<ParticipantView>(at(signupId, participantId, 'no-show'), { key: tenant.key, method: 'DELETE' });
    expect(undone.body).toMatchObject({ status: 'confirmed', noShowAt: null });
  });

  it('answers 409 for a cancelled participant, for hours of one not checked in, and for undoing what was not done', async () => {
    const { signupId, participantId, token } = await registered();
    const other = await registered();
    expect(
      (await call(at(other.signupId, other.participantId, 'attendance'), { key: tenant.key, method: 'PATCH', body: { hoursServed: 1 } }))
        .body,
    ).toMatchObject({ status: 409, code: 'conflict' });
    await call(at(other.signupId, other.participantId, 'no-show'), { key: tenant.key, method: 'POST' });
    expect((await call(at(other.signupId, other.participantId, 'check-in'), { key: tenant.key, method: 'DELETE' })).status).toBe(409);
    expect((await call<RegistrationView>(`/registrations/${token}`, { method: 'DELETE' })).status).toBe(200);
    for (const [method, action] of [
      ['POST', 'check-in'],
      ['POST', 'no-show'],
    ] as const) {
      const res = await call(at(signupId, participantId, action), { key: tenant.key, method });
      expect(res.status).toBe(409);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('cancelled') });
    }
  });

  it.each([
    [{ hoursServed: -1 }, 'Must be at least 0'],
    [{ hoursServed: 1000.5 }, 'Must be at most 1000'],
    [{ hoursServed: 0.125 }, 'At most 2 decimals'],
    [{ hoursServed: '2' }, 'Expected number'],
  ])('refuses the check-in %j with 422 on hoursServed (%s) and changes nothing', async (body, message) => {
    const { signupId, participantId } = await registered();
    const res = await call(at(signupId, participantId, 'check-in'), { key: tenant.key, body });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'hoursServed', message }] });
    const patch = await call(at(signupId, participantId, 'attendance'), { key: tenant.key, method: 'PATCH', body });
    expect(patch.body).toMatchObject({ errors: [{ path: 'hoursServed', message }] });
    const listed = await call<{ data: ParticipantView[] }>(`/signups/${signupId}/participants`, { key: tenant.key });
    expect(listed.body.data[0]).toMatchObject({ status: 'confirmed', checkedInAt: null });
  });

  it('refuses unknown fields, a missing hoursServed on PATCH, bad ids, an absent participant and another organization', async () => {
    const { signupId, participantId } = await registered();
    expect((await call(at(signupId, participantId, 'check-in'), { key: tenant.key, body: { hours: 1 } })).body).toMatchObject({
      errors: [{ path: 'hours', message: 'Unknown field' }],
    });
    expect((await call(at(signupId, participantId, 'attendance'), { key: tenant.key, method: 'PATCH', body: {} })).body).toMatchObject({
      errors: [{ path: 'hoursServed', message: 'Required' }],
    });
    expect((await call(at(signupId, 'nope', 'no-show'), { key: tenant.key, method: 'POST' })).body).toMatchObject({
      status: 422,
      errors: [{ path: 'participantId', message: 'Invalid uuid' }],
    });
    expect((await call(at(signupId, MISSING_ID, 'check-in'), { key: tenant.key, method: 'POST' })).status).toBe(404);
    expect((await call(at(MISSING_ID, participantId, 'check-in'), { key: tenant.key, method: 'POST' })).status).toBe(404);
    const stranger = await newTenant('pro');
    expect((await call(at(signupId, participantId, 'check-in'), { key: stranger.key, method: 'POST' })).body).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect((await call(at(signupId, participantId, 'check-in'), { method: 'POST' })).status).toBe(401);
  });

  it.each([
    ['POST', 'check-in', 'participants:write'],
    ['DELETE', 'check-in', 'participants:write'],
    ['POST', 'no-show', 'participants:write'],
    ['DELETE', 'no-show', 'participants:write'],
    ['PATCH', 'attendance', 'participants:write'],
  ])('%s …/%s needs %s', async (method, action, scope) => {
    const { signupId, participantId } = await registered();
    const narrow = await tenant.newKey({ scopes: 'participants:read analytics:read' });
    const res = await call(at(signupId, participantId, action), {
      key: narrow.key,
      method,
      ...(method === 'PATCH' && { body: { hoursServed: 1 } }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
  });

  describe('GET /signups/{id}/attendance', () => {
    it('counts, rates and lists the hours of those checked in, not cached', async () => {
      const { signupId, participantId } = await registered();
      const second = await call<RegistrationResultView>(`/signups/${signupId}/participants`, { body: person() });
      const { participant } = (await call<RegistrationView>(`/registrations/${second.body.confirmationToken}`)).body;
      const checked = await call<ParticipantView>(at(signupId, participantId, 'check-in'), { key: tenant.key, method: 'POST' });
      await call(at(signupId, participant.id, 'no-show'), { key: tenant.key, method: 'POST' });
      const res = await call<AttendanceView>(`/signups/${signupId}/attendance`, { key: tenant.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        signupId,
        confirmed: 0,
        attended: 1,
        noShow: 1,
        expected: 2,
        attendanceRate: 0.5,
        hoursServed: {
          total: 2,
          participants: [
            { participantId, name: checked.body.name, email: checked.body.email, checkedInAt: checked.body.checkedInAt, hoursServed: 2 },
          ],
          truncated: false,
        },
      });
    });

    it('needs participants:read (analytics:read alone does not read names), and is 403 for another organization and 404 for an absent signup', async () => {
      const { signupId } = await registered();
      const narrow = await tenant.newKey({ scopes: 'analytics:read' });
      expect((await call(`/signups/${signupId}/attendance`, { key: narrow.key })).body).toMatchObject({
        code: 'scope_required',
        detail: expect.stringContaining('participants:read'),
      });
      expect((await call(`/signups/${signupId}/attendance`, { key: (await newTenant('pro')).key })).status).toBe(403);
      expect((await call(`/signups/${MISSING_ID}/attendance`, { key: tenant.key })).status).toBe(404);
      expect((await call(`/signups/nope/attendance`, { key: tenant.key })).body).toMatchObject({ errors: [{ path: 'id' }] });
    });
  });

  describe('GET /reports/hours', () => {
    it("sums the hours of the organization's signups in the range, by signup and by email", async () => {
      const owner = await newTenant('pro');
      const own = async (eventDate: string, hours: number) => {
        const { signup } = await newSignup(owner.key, { fields: { eventDate, title: `On ${eventDate}` } });
        const result = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
          body: person([], { email: 'Volunteer@example.com' }),
        });
        const { participant } = (await call<RegistrationView>(`/registrations/${result.body.confirmationToken}`)).body;
        await call(at(signup.id, participant.id, 'check-in'), { key: owner.key, body: { hoursServed: hours } });
        return signup;
      };
      const first = await own('2027-03-01T10:00:00.000Z', 2.5);
      const last = await own('2027-03-31T23:00:00.000Z', 1.25);
      await own('2027-04-01T00:00:00.000Z', 100);
      const res = await call<HoursReportView>('/reports/hours?from=2027-03-01&to=2027-03-31', { key: owner.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        from: '2027-03-01',
        to: '2027-03-31',
        totalHours: 3.75,
        signups: [first, last].map((s, i) => ({
          signupId: s.id,
          title: s.title,
          eventDate: s.eventDate,
          attended: 1,
          hoursServed: [2.5, 1.25][i],
        })),
        participants: [{ email: 'volunteer@example.com', signups: 2, hoursServed: 3.75 }],
        truncated: false,
      });
    });

    it.each([
      ['from=2027-03-02&to=2027-03-01', 'to', 'Must not be before from'],
      ['from=2027-01-01&to=2028-01-02', 'to', 'Must be at most 366 days from from'],
      ['from=2027-02-29&to=2027-03-01', 'from', 'Invalid date: expected YYYY-MM-DD, e.g. 2026-06-01'],
      ['from=2027-03-01', 'to', 'Required'],
      ['from=2027-03-01&to=2027-03-02&x=1', 'x', 'Unknown field'],
    ])('refuses ?%s with 422 on %s: %s', async (query, path, message) => {
      const res = await call(`/reports/hours?${query}`, { key: tenant.key });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path, message }] });
    });

    it('needs participants:read', async () => {
      const narrow = await tenant.newKey({ scopes: 'analytics:read' });
      const res = await call('/reports/hours?from=2027-03-01&to=2027-03-02', { key: narrow.key });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="participants:read"');
    });
  });
});
