import type { ParticipantView, RegistrationResultView, RegistrationView, SignupView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';

type OpenApiSchema = { properties?: Record<string, { items?: { $ref?: string }; additionalProperties?: unknown; $ref?: string }> };

/** Questions on signups and answers on registrations, through the gateway. */
describe('custom questions over REST', () => {
  let tenant: Tenant;
  let signup: SignupView;

  const QUESTIONS = [
    { type: 'single_choice', label: 'T-shirt size', required: true, options: ['S', 'M'] },
    { type: 'number', label: 'Guests', min: 0, max: 3 },
  ];

  beforeAll(async () => {
    tenant = await newTenant('pro');
    signup = (await newSignup(tenant.key, { fields: { questions: QUESTIONS } })).signup;
  });

  const register = (body: unknown) => call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body });

  it('creates a signup with its questions and shows them on every read, the public one too', async () => {
    expect(signup.questions).toEqual([
      { id: expect.any(String), type: 'single_choice', label: 'T-shirt size', required: true, options: ['S', 'M'], min: null, max: null },
      { id: expect.any(String), type: 'number', label: 'Guests', required: false, options: null, min: 0, max: 3 },
    ]);
    expect((await call<SignupView>(`/signups/${signup.id}`, { key: tenant.key })).body.questions).toEqual(signup.questions);
    expect((await call<SignupView>(`/public/signups/${signup.slug}`)).body.questions).toEqual(signup.questions);
  });

  it('refuses options on a question that is not a choice, and a question id of another signup', async () => {
    const created = await call('/signups', {
      key: tenant.key,
      body: { title: 'x', eventDate: '2027-06-01T18:00:00Z', questions: [{ type: 'yes_no', label: 'Ok?', options: ['a'] }] },
    });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual([{ path: 'questions.0.options', message: 'Only for single_choice and multiple_choice questions' }]);
    const other = (await newSignup(tenant.key, { fields: { questions: QUESTIONS } })).signup;
    const patched = await call(`/signups/${signup.id}`, {
      key: tenant.key,
      method: 'PATCH',
      body: { questions: [{ ...QUESTIONS[0], id: other.questions[0]!.id }] },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual([{ path: 'questions.0.id', message: 'No question with this id in this signup' }]);
  });

  it('refuses answers that do not fit, each on its question, and stores nothing', async () => {
    const [size, guests] = signup.questions;
    const res = await register(person([], { answers: { [guests!.id]: 'two' } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: `answers.${guests!.id}`, message: 'Expected a number' },
        { path: `answers.${size!.id}`, message: 'Required: this question must be answered' },
      ],
    });
    const nested = await register(person([], { answers: { [size!.id]: { S: true } } }));
    expect(nested.status).toBe(422);
    expect(nested.body).toMatchObject({ errors: [{ path: 'answers', message: expect.stringContaining('Expected text') }] });
    const participants = await call<{ data: ParticipantView[] }>(`/signups/${signup.id}/participants`, { key: tenant.key });
    expect(participants.body.data).toEqual([]);
  });

  it('merges answers in edits by token and by the organizer, and refuses clearing a required one', async () => {
    const [size, guests] = signup.questions;
    const registered = await register(person([], { answers: { [size!.id]: 'S' } }));
    expect(registered.status).toBe(201);
    const token = registered.body.confirmationToken!;
    const edited = await call<RegistrationView>(`/registrations/${token}`, { method: 'PATCH', body: { answers: { [guests!.id]: 3 } } });
    expect(edited.status).toBe(200);
    expect(edited.body.participant.answers).toEqual({ [size!.id]: 'S', [guests!.id]: 3 });
    const cleared = await call(`/registrations/${token}`, { method: 'PATCH', body: { answers: { [size!.id]: null } } });
    expect(cleared.status).toBe(422);
    expect(cleared.body.errors).toEqual([{ path: `answers.${size!.id}`, message: 'Required: this question must be answered' }]);
    const byOrganizer = await call<ParticipantView>(`/signups/${signup.id}/participants/${edited.body.participant.id}`, {
      key: tenant.key,
      method: 'PATCH',
      body: { answers: { [size!.id]: 'M', [guests!.id]: null } },
    });
    expect(byOrganizer.status).toBe(200);
    expect(byOrganizer.body.answers).toEqual({ [size!.id]: 'M' });
  });

  it('documents questions and answers in the OpenAPI document', async () => {
    const doc = (await call<{ components: { schemas: Record<string, OpenApiSchema> } }>('/openapi.json')).body;
    const { schemas } = doc.components;
    expect(schemas.CreateSignupDto!.properties!.questions!.items!.$ref).toBe('#/components/schemas/QuestionDto');
    expect(schemas.UpdateSignupDto!.properties!.questions).toBeDefined();
    expect(schemas.SignupView!.properties!.questions!.items!.$ref).toBe('#/components/schemas/QuestionView');
    expect(schemas.PublicSignupView!.properties!.questions).toBeDefined();
    expect(Object.keys(schemas.QuestionDto!.properties!)).toEqual(['id', 'type', 'label', 'required', 'options', 'min', 'max']);
    for (const dto of ['RegistrationDto', 'UpdateRegistrationDto', 'UpdateParticipantDto', 'ParticipantView']) {
      expect(schemas[dto]!.properties!.answers!.additionalProperties).toMatchObject({ oneOf: expect.any(Array) });
    }
  });
});
