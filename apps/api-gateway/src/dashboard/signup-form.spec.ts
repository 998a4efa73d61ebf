import type { SignupView } from '#libs/contracts';
import { choiceRequest, choiceValues, kindOf, placeFieldErrors, questionRowsOf, signupFormValues, signupRequest } from './signup-form.js';

const signup = {
  id: 'b6f0c1de-0000-4000-8000-000000000001',
  title: 'Potluck',
  description: null,
  eventDate: '2027-06-01T22:00:00.000Z',
  timeZone: 'America/New_York',
  location: 'Park',
  maxParticipants: 20,
  requiresPhone: false,
  signupCloseDate: null,
  reminderHoursBefore: 24,
  waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
  questions: [{ id: 'q1', type: 'single_choice', label: 'Diet', required: true, options: ['Vegan', 'Any'] }],
} as unknown as SignupView;

describe('the signup form', () => {
  it('shows a signup in its zone, and sends it back as the PATCH body it was', () => {
    const values = signupFormValues(signup);
    expect(values).toMatchObject({ eventDate: '2027-06-01T18:00', waitlistEnabled: 'on', 'question-0-options': 'Vegan\nAny' });
    expect(questionRowsOf(values)).toBe(1);
    const { input, questionRows } = signupRequest(values, true);
    expect(input).toEqual({
      title: 'Potluck',
      description: null,
      eventDate: '2027-06-01T22:00:00.000Z',
      timeZone: 'America/New_York',
      location: 'Park',
      maxParticipants: 20,
      signupCloseDate: null,
      reminderHoursBefore: 24,
      requiresPhone: false,
      waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
      questions: [{ id: 'q1', label: 'Diet', type: 'single_choice', required: true, options: ['Vegan', 'Any'] }],
    });
    expect(questionRows).toEqual([0]);
  });

  it('adds the question of the last row, drops a removed one, and leaves out empty fields on a create', () => {
    const values = {
      ...signupFormValues(signup),
      'question-0-remove': 'on',
      'question-1-label': 'T-shirt size',
      'question-1-type': 'short_text',
      description: '',
      maxParticipants: 'ten',
    };
    const { input, questionRows } = signupRequest(values, false);
    expect(input.questions).toEqual([{ label: 'T-shirt size', type: 'short_text', required: false }]);
    expect(questionRows).toEqual([1]);
    expect(input).not.toHaveProperty('description');
    expect(input.maxParticipants).toBe('ten');
  });

  it('puts the API errors beside their fields, a question error beside its row', () => {
    const values = signupFormValues(signup);
    const view = placeFieldErrors(
      values,
      [
        { path: 'eventDate', message: 'must be a date-time' },
        { path: 'waitlist.offerMinutes', message: 'too long' },
        { path: 'questions.0.options', message: 'needs two' },
        { path: 'somethingElse', message: 'odd' },
      ],
      [0],
    );
    expect(view.errors).toEqual({
      eventDate: ['must be a date-time'],
      waitlistOfferMinutes: ['too long'],
      'question-0-options': ['needs two'],
      title: ['odd'],
    });
  });
});

describe('the slot and item forms', () => {
  const withChoices = {
    ...signup,
    slots: [{ id: 's1', title: 'Door', description: null, startTime: '2027-06-01T21:00:00.000Z', endTime: null, capacity: 3 }],
    items: [{ id: 'i1', name: 'Salad', notes: 'Big', quantityNeeded: 2 }],
  } as unknown as SignupView;

  it('shows a slot on the signup clock and sends it back as its PATCH body, emptied fields cleared', () => {
    const values = choiceValues(withChoices, 'slot', 's1')!;
    expect(values).toEqual({ title: 'Door', description: '', startTime: '2027-06-01T17:00', endTime: '', capacity: '3' });
    expect(choiceRequest('slot', values, withChoices.timeZone)).toEqual({
      title: 'Door',
      description: null,
      startTime: '2027-06-01T21:00:00.000Z',
      endTime: null,
      capacity: 3,
    });
  });

  it("reads an item, and knows neither another signup's choice nor another list", () => {
    expect(choiceRequest('item', choiceValues(withChoices, 'item', 'i1')!, 'UTC')).toEqual({
      name: 'Salad',
      notes: 'Big',
      quantityNeeded: 2,
    });
    expect(choiceValues(withChoices, 'item', 's1')).toBeUndefined();
    expect([kindOf('slots'), kindOf('items'), kindOf('participants')]).toEqual(['slot', 'item', undefined]);
  });
});
