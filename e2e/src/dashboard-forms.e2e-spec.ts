import type { ParticipantView, RegistrationResultView, SignupView } from '#libs/contracts';
import { call, newTenant } from './support/api.js';
import { type DashboardClient, type DashboardPage, signInToDashboard } from './support/dashboard.js';
import { newSignup, person } from './support/signups.js';

/** The ETag a form was drawn with (its hidden field, as the page escapes it). */
const etagOf = (page: DashboardPage): string => /name="etag" value="([^"]*)"/.exec(page.html)![1]!.replaceAll('&quot;', '"');
const errorOf = (page: DashboardPage, field: string): string | undefined =>
  new RegExp(`<p class="error" id="${field}-error">([^<]*)</p>`).exec(page.html)?.[1];

/** A form body with repeated fields (checkboxes of one name), encoded as a browser does. */
const formBody = (fields: [string, string][]): string => new URLSearchParams(fields).toString();

/** A live organization signed in to the dashboard, with its live key for checking through the API. */
async function organizer(): Promise<{ dashboard: DashboardClient; key: string }> {
  const tenant = await newTenant();
  const { key } = await tenant.newKey({ mode: 'live' });
  return { dashboard: await signInToDashboard(tenant.user.email), key };
}

describe('the dashboard forms, against the real API', () => {
  describe("a participant's edit", () => {
    let dashboard: DashboardClient;
    let key: string;
    let signup: SignupView;
    let morning: string;
    let evening: string;
    let diet: string;
    let helps: string;

    beforeAll(async () => {
      ({ dashboard, key } = await organizer());
      const fixture = await newSignup(key, {
        fields: {
          questions: [
            { type: 'single_choice', label: 'Diet', required: true, options: ['Vegan', 'Any'] },
            { type: 'multiple_choice', label: 'Helps with', required: false, options: ['Setup', 'Cleanup'] },
          ],
        },
        slots: [
          { title: 'Morning', capacity: 10 },
          { title: 'Evening', capacity: 1 },
        ],
      });
      signup = fixture.signup;
      [morning, evening] = fixture.slots.map((slot) => slot.id) as [string, string];
      [diet, helps] = signup.questions.map((question) => question.id) as [string, string];
    });

    const stored = async (id: string) => (await call<ParticipantView>(`/signups/${signup.id}/participants/${id}`, { key })).body;
    const register = async (slot: string, answers: Record<string, unknown>): Promise<ParticipantView> => {
      const res = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
        key,
        body: person([{ type: 'slot', id: slot }], { answers }),
      });
      expect(res.status).toBe(201);
      return stored(res.body.confirmed[0]!.participantId);
    };
    const editPath = (id: string) => `/app/signups/${signup.id}/participants/${id}/edit`;

    it('shows what they hold and answered, and moves them to another slot with new answers', async () => {
      const ana = await register(morning, { [diet]: 'Vegan' });
      const form = await dashboard.get(editPath(ana.id));
      expect(form.status).toBe(200);
      expect(form.html).toMatch(new RegExp(`id="slot-${morning}" name="slot-${morning}" type="number" value="1"`));
      expect(form.html).toMatch(new RegExp(`name="q-${diet}" value="Vegan" checked`));

      const saved = await dashboard.postRaw(
        editPath(ana.id),
        formBody([
          ['etag', etagOf(form)],
          ['name', 'Ana Lima'],
          ['email', ana.email],
          ['phone', ''],
          [`slot-${morning}`, '0'],
          [`slot-${evening}`, '1'],
          [`q-${diet}`, 'Any'],
          [`q-${helps}`, 'Setup'],
          [`q-${helps}`, 'Cleanup'],
        ]),
      );
      expect(saved).toMatchObject({ status: 303, location: `/app/signups/${signup.id}/participants?done=saved` });
      expect(await stored(ana.id)).toMatchObject({
        name: 'Ana Lima',
        selections: [{ type: 'slot', id: evening, quantity: 1 }],
        answers: { [diet]: 'Any', [helps]: ['Setup', 'Cleanup'] },
      });
    });

    it('says a slot is full and changes nothing, keeping what was entered', async () => {
      const bo = await register(morning, { [diet]: 'Any' });
      const form = await dashboard.get(editPath(bo.id));
      const refused = await dashboard.postRaw(
        editPath(bo.id),
        formBody([
          ['etag', etagOf(form)],
          ['name', 'Bo Renamed'],
          ['email', bo.email],
          [`slot-${morning}`, '0'],
          [`slot-${evening}`, '1'],
          [`q-${diet}`, 'Any'],
        ]),
      );
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('Slot “Evening” is full.');
      expect(refused.html).toContain('value="Bo Renamed"');
      expect(await stored(bo.id)).toMatchObject({ name: bo.name, selections: [{ type: 'slot', id: morning, quantity: 1 }] });
    });

    it('marks the fields refused, by the form or by the API, keeping what was entered', async () => {
      const cy = await register(morning, { [diet]: 'Vegan' });
      const form = await dashboard.get(editPath(cy.id));
      const refused = await dashboard.postRaw(
        editPath(cy.id),
        formBody([
          ['etag', etagOf(form)],
          ['name', cy.name],
          ['email', 'not an address'],
          [`slot-${morning}`, 'two'],
        ]),
      );
      expect(refused.status).toBe(422);
      expect(errorOf(refused, `slot-${morning}`)).toBe('Enter a whole number, 0 or more');
      expect(refused.html).toContain('value="not an address"');

      const badEmail = await dashboard.postRaw(
        editPath(cy.id),
        formBody([
          ['etag', etagOf(form)],
          ['name', cy.name],
          ['email', 'not an address'],
          [`slot-${morning}`, '1'],
          [`q-${diet}`, 'Vegan'],
        ]),
      );
      expect(badEmail.status).toBe(422);
      expect(errorOf(badEmail, 'email')).toBeDefined();
      expect(badEmail.html).toContain('<a href="#email">Email</a>');
      expect((await stored(cy.id)).email).toBe(cy.email);
    });

    it('says someone changed the participant meanwhile, and shows them as they are now', async () => {
      const di = await register(morning, { [diet]: 'Vegan' });
      const form = await dashboard.get(editPath(di.id));
      expect(
        (await call(`/signups/${signup.id}/participants/${di.id}`, { key, method: 'PATCH', body: { name: 'Di Changed Elsewhere' } }))
          .status,
      ).toBe(200);
      const conflict = await dashboard.postRaw(
        editPath(di.id),
        formBody([
          ['etag', etagOf(form)],
          ['name', 'Di Mine'],
          ['email', di.email],
          [`slot-${morning}`, '1'],
          [`q-${diet}`, 'Vegan'],
        ]),
      );
      expect(conflict.status).toBe(409);
      expect(conflict.html).toContain('Someone changed this while you were editing');
      expect(conflict.html).toContain('value="Di Changed Elsewhere"');
      expect((await stored(di.id)).name).toBe('Di Changed Elsewhere');
    });

    it('keeps answers given before their question changed, and writes nothing when nothing changed', async () => {
      const ed = await register(morning, { [diet]: 'Any', [helps]: ['Setup', 'Cleanup'] });
      const questions = [
        { id: diet, type: 'single_choice', label: 'Diet', required: true, options: ['Vegan', 'Vegetarian'] },
        { id: helps, type: 'multiple_choice', label: 'Helps with', required: false, options: ['Setup', 'Tidy'] },
      ];
      expect((await call(`/signups/${signup.id}`, { key, method: 'PATCH', body: { questions } })).status).toBe(200);
      const form = await dashboard.get(editPath(ed.id));
      expect(form.html).not.toMatch(new RegExp(`name="q-${diet}" value="[^"]*" checked`));
      const fields = (phone: string): [string, string][] => [
        ['name', ed.name],
        ['email', ed.email],
        ['phone', phone],
        [`slot-${morning}`, '1'],
        [`q-${helps}`, 'Setup'],
      ];
      const saved = await dashboard.postRaw(editPath(ed.id), formBody([['etag', etagOf(form)], ...fields('+14155550123')]));
      expect(saved.status).toBe(303);
      const after = await stored(ed.id);
      expect(after).toMatchObject({ phone: '+14155550123', answers: { [diet]: 'Any', [helps]: ['Setup', 'Cleanup'] } });

      const again = await dashboard.get(editPath(ed.id));
      const unchanged = await dashboard.postRaw(editPath(ed.id), formBody([['etag', etagOf(again)], ...fields('+14155550123')]));
      expect(unchanged).toMatchObject({ status: 303, location: `/app/signups/${signup.id}/participants?done=saved` });
      expect((await stored(ed.id)).updatedAt).toBe(after.updatedAt);
    });

    it('shows a cancelled participant without a form that could never be saved', async () => {
      const res = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
        key,
        body: person([{ type: 'slot', id: morning }], { answers: { [diet]: 'Vegan' } }),
      });
      expect((await call(`/registrations/${res.body.confirmationToken}`, { method: 'DELETE' })).status).toBe(200);
      const path = editPath(res.body.confirmed[0]!.participantId);
      const page = await dashboard.get(path);
      expect(page.status).toBe(200);
      expect(page.html).toContain('cancelled: their registration cannot be changed.');
      expect(page.html).not.toContain(`action="${path}"`);
    });
  });

  describe("a signup's forms", () => {
    it('puts a question error beside its row, keeping the form', async () => {
      const { dashboard } = await organizer();
      const refused = await dashboard.post('/app/signups', {
        title: 'Bake sale',
        eventDate: '2027-06-01T18:00',
        timeZone: 'UTC',
        'question-0-label': 'Flavour',
        'question-0-type': 'single_choice',
        'question-0-options': '',
      });
      expect(refused.status).toBe(422);
      expect(errorOf(refused, 'question-0-options')).toBeDefined();
      expect(errorOf(refused, 'title')).toBeUndefined();
      expect(refused.html).toContain('value="Bake sale"');
    });

    it('says someone changed the signup meanwhile, and keeps the form of a refused edit on the ETag it was drawn with', async () => {
      const { dashboard, key } = await organizer();
      const { signup } = await newSignup(key, { fields: { title: 'Picnic' } });
      const form = await dashboard.get(`/app/signups/${signup.id}/edit`);
      const drawnWith = etagOf(form);
      const fields = { etag: drawnWith, title: 'Picnic', eventDate: '2027-06-01T18:00', timeZone: 'UTC' };

      expect((await call(`/signups/${signup.id}`, { key, method: 'PATCH', body: { title: 'Picnic in the park' } })).status).toBe(200);
      const invalid = await dashboard.post(`/app/signups/${signup.id}/edit`, { ...fields, maxParticipants: '-3' });
      expect(invalid.status).toBe(422);
      expect(errorOf(invalid, 'maxParticipants')).toBeDefined();
      expect(etagOf(invalid)).toBe(drawnWith);

      const conflict = await dashboard.post(`/app/signups/${signup.id}/edit`, {
        ...fields,
        etag: etagOf(invalid),
        title: 'Picnic by the lake',
      });
      expect(conflict.status).toBe(409);
      expect(conflict.html).toContain('Someone changed this while you were editing');
      expect(conflict.html).toContain('value="Picnic in the park"');
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body.title).toBe('Picnic in the park');
    });

    it('shows a refused slot or item on a form of its own, the errors beside the fields', async () => {
      const { dashboard, key } = await organizer();
      const { signup } = await newSignup(key);
      const slot = await dashboard.post(`/app/signups/${signup.id}/slots`, {
        title: 'Setup',
        startTime: '2027-06-01T18:00',
        endTime: '2027-06-01T17:00',
        capacity: '0',
      });
      expect(slot.status).toBe(422);
      expect(slot.html).toContain('<h1>Add a slot</h1>');
      expect(errorOf(slot, 'capacity')).toBeDefined();
      expect(slot.html).toContain('value="Setup"');
      const item = await dashboard.post(`/app/signups/${signup.id}/items`, { name: '', quantityNeeded: '2' });
      expect(item.status).toBe(422);
      expect(errorOf(item, 'name')).toBeDefined();
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body).toMatchObject({ slots: [], items: [] });

      const added = await dashboard.post(`/app/signups/${signup.id}/items`, { name: 'Chairs', quantityNeeded: '6' });
      expect(added).toMatchObject({ status: 303, location: `/app/signups/${signup.id}?done=item-added` });
      expect((await call<SignupView>(`/signups/${signup.id}`, { key })).body.items).toMatchObject([{ name: 'Chairs', quantityNeeded: 6 }]);
    });
  });
});
