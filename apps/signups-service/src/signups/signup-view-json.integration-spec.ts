import { JsonAnswer, type Principal, type SignupView } from '#libs/contracts';
import { type AppHarness, caller, daysFromNow, startApp } from '../testing/fixtures.js';
import { SignupsHandlers } from './signups.handlers.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_view_json');
});

afterAll(async () => {
  await h?.close();
});

/** A signup with every kind of value its view holds, as signups.update answered it (SignupPresenter.detail). */
async function fullSignup(principal: Principal, bound: number): Promise<SignupView> {
  const { signup } = await h.signup(principal, {
    signup: {
      title: 'Quotes " and \\ and 表',
      description: 'Line\nbreak, tab\t, separator\u2028, emoji 👩‍👩‍👧',
      signupCloseDate: `${daysFromNow(20).slice(0, 10)}T17:30:00.123456+02:00`,
      maxParticipants: 40,
      waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
    },
    slots: [
      {
        title: 'Setup',
        capacity: 2,
        startTime: `${daysFromNow(30).slice(0, 10)}T08:00:00.999999Z`,
        endTime: `${daysFromNow(30).slice(0, 10)}T09:00:00Z`,
      },
      { title: 'Anytime "whenever"', capacity: 5 },
    ],
    items: [
      { name: 'Salad', notes: 'No nuts, “please”', quantityNeeded: 3 },
      { name: 'Cups', quantityNeeded: 50 },
    ],
  });
  return h.stack.bus.request('signups.update', {
    principal,
    id: signup.id,
    input: {
      questions: [
        { type: 'number', label: 'Guests', min: bound, max: 120.5 },
        { type: 'single_choice', label: 'Size', required: true, options: ['S', 'M "medium"', 'L 表'] },
        { type: 'short_text', label: 'Anything else?' },
      ],
    },
  });
}

const handlers = () => h.app.app.get(SignupsHandlers).handlers();
const listOf = (views: SignupView[], nextCursor: string | null) => ({
  data: views.map(({ slots: _slots, items: _items, ...view }) => view),
  nextCursor,
});

describe('signups.get and signups.list as Postgres writes them', () => {
  it('answers the text JSON.stringify makes of the presenter’s view, byte for byte, for the owner and for another organization', async () => {
    const owner = caller();
    const edited = await fullSignup(owner, 0.30000000000000004);
    const other = caller();
    for (const principal of [owner, other]) {
      expect(await handlers()['signups.get']({ principal, id: edited.id })).toBeInstanceOf(JsonAnswer);
      expect(await h.stack.bus.requestJson('signups.get', { principal, id: edited.id })).toBe(JSON.stringify(edited));
    }
    expect(await handlers()['signups.list']({ principal: owner, query: {} })).toBeInstanceOf(JsonAnswer);
    expect(await h.stack.bus.requestJson('signups.list', { principal: owner, query: {} })).toBe(JSON.stringify(listOf([edited], null)));
  });

  it('pages with the cursor the presenter’s page would carry', async () => {
    const owner = caller();
    const first = await fullSignup(owner, 1);
    const second = await fullSignup(owner, 2);
    const page = JSON.parse(await h.stack.bus.requestJson('signups.list', { principal: owner, query: { limit: 1 } })) as {
      nextCursor: string;
    };
    expect(page).toEqual(listOf([second], expect.any(String)));
    const next = await h.stack.bus.requestJson('signups.list', { principal: owner, query: { limit: 1, cursor: page.nextCursor } });
    expect(next).toBe(JSON.stringify(listOf([first], null)));
  });

  it('builds the view in JavaScript when Postgres would write a value another way (a bound of 1e-7)', async () => {
    const owner = caller();
    const odd = await fullSignup(owner, 1e-7);
    expect(await handlers()['signups.get']({ principal: owner, id: odd.id })).not.toBeInstanceOf(JsonAnswer);
    expect(await h.stack.bus.requestJson('signups.get', { principal: owner, id: odd.id })).toBe(JSON.stringify(odd));
    expect(await h.stack.bus.requestJson('signups.list', { principal: owner, query: {} })).toBe(JSON.stringify(listOf([odd], null)));
  });

  it('hides a draft of another organization and another mode alike', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { status: 'draft' });
    for (const principal of [caller(), caller({ organizationId: owner.organizationId, livemode: !owner.livemode })]) {
      await expect(h.stack.bus.requestJson('signups.get', { principal, id: signup.id })).rejects.toMatchObject({ code: 'not_found' });
    }
  });
});
