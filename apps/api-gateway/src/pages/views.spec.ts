import { participantEvents } from '#libs/calendar';
import type { ParticipantView, PublicSignupView, WaitlistEntryView } from '#libs/contracts';
import { STYLESHEET_PATH } from '#libs/web';
import {
  choicesOf,
  emptyForm,
  FORM_VALUE_MAX_LENGTH,
  movedLocation,
  placeErrors,
  readForm,
  readMove,
  readSelections,
} from './page-form.js';
import { CONTENT_SECURITY_POLICY } from './page-headers.js';
import { canceledPage, notAccepting, registrationPage, signupPage } from './views.js';

const EVIL = '<script>alert("x")</script>';

describe('page headers', () => {
  it('allow no script and no inline style: only the stylesheet of this origin', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("style-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src|unsafe-inline|unsafe-eval|sha256-/);
  });
});

const signup = (overrides: Partial<PublicSignupView> = {}): PublicSignupView => ({
  id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
  slug: 'party-abc123',
  title: EVIL,
  description: EVIL,
  status: 'published',
  eventDate: '2027-06-01T18:00:00.000Z',
  timeZone: 'UTC',
  location: EVIL,
  requiresPhone: true,
  signupCloseDate: null,
  waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
  acceptingRegistrations: true,
  spotsRemaining: 5,
  publicUrl: 'http://x/s/party-abc123',
  livemode: true,
  updatedAt: '2027-05-01T09:00:00Z',
  questions: [],
  slots: [
    {
      id: 's1',
      title: EVIL,
      description: EVIL,
      startTime: '2027-06-01T09:00:00Z',
      endTime: '2027-06-01T11:00:00Z',
      capacity: 3,
      taken: 3,
      remaining: 0,
      updatedAt: '2027-05-01T09:00:00Z',
      livemode: true,
    },
  ],
  items: [{ id: 'i1', name: EVIL, notes: EVIL, quantityNeeded: 2, quantityClaimed: 0, remaining: 2, livemode: true }],
  ...overrides,
});

describe('signupPage', () => {
  it('renders script tags in titles, names, notes and entered values inert', () => {
    const page = signupPage(signup(), emptyForm({ name: `"><script>1</script>`, email: EVIL })).value;
    expect(page).not.toMatch(/<script|<style|style=/i);
    expect(page).toContain(`<link rel="stylesheet" href="${STYLESHEET_PATH}">`);
    expect(page).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</h1>');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;1&lt;/script&gt;"');
  });

  it('disables the quantity of a full slot and says it is full', () => {
    const page = signupPage(signup(), emptyForm()).value;
    expect(page).toContain('Full (3 of 3 taken)');
    expect(page).toMatch(/<input id="slot-s1" [^>]*max="0"[^>]* disabled>/);
    expect(page).toContain('5 places left in total.');
  });
});

const WAITLIST_ON = { enabled: true, mode: 'offer', offerMinutes: 60 } as const;
const TOKEN = `cnf_${'a'.repeat(32)}`;
const CALENDAR_URL = `https://api.example.test/calendars/pcal_${'b'.repeat(54)}.ics`;

const entry = (overrides: Partial<WaitlistEntryView> = {}): WaitlistEntryView => ({
  id: '0190a0b2-7a3c-7def-8a12-00000000000e',
  type: 'slot',
  targetId: 's1',
  quantity: 1,
  state: 'waiting',
  position: 3,
  joinedAt: '2027-05-01T10:00:00.000Z',
  offeredAt: null,
  offerExpiresAt: null,
  ...overrides,
});

const participant = (overrides: Partial<ParticipantView> = {}): ParticipantView => ({
  id: '0190a0b2-7a3c-7def-8a12-00000000000f',
  signupId: '0190a0b2-7a3c-7def-8a12-1234567890ab',
  name: EVIL,
  email: 'ana@example.com',
  phone: null,
  selections: [{ type: 'item', id: 'i1', quantity: 1 }],
  answers: {},
  createdAt: '2027-05-01T10:00:00.000Z',
  updatedAt: '2027-05-01T10:00:00.000Z',
  remindedAt: null,
  status: 'confirmed',
  statusChangedAt: '2027-05-01T10:00:00.000Z',
  cancelledAt: null,
  checkedInAt: null,
  noShowAt: null,
  hoursServed: null,
  waitlist: [entry()],
  livemode: true,
  ...overrides,
});

const ACTION = `/r/${TOKEN}/waitlist/${entry().id}`;

describe('signupPage with the waitlist on', () => {
  it('keeps the quantity of a full slot usable up to its capacity, and labels it as joining the waitlist', () => {
    const page = signupPage(signup({ waitlist: WAITLIST_ON }), emptyForm()).value;
    expect(page).toMatch(/<input id="slot-s1" [^>]*max="3" step="1" value="0" aria-describedby="slot-s1-remaining slot-s1-hint">/);
    expect(page).toContain('<label for="slot-s1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: join the waitlist</label>');
    expect(page).toContain('Full (3 of 3 taken). Join the waitlist: you are given a place when one frees up, in turn</span>');
    expect(page).toContain('<label for="item-i1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</label>');
  });

  it('says a full signup takes registrations into its waitlist, shows the form, and lets every choice join its line', () => {
    const page = signupPage(signup({ waitlist: WAITLIST_ON, spotsRemaining: 0 }), emptyForm()).value;
    expect(page).toContain('This signup is full: you can join its waitlist.');
    expect(page).not.toContain('places left in total');
    expect(page).toContain('<form method="post" action="/s/party-abc123">');
    expect(page).toContain('<label for="item-i1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: join the waitlist</label>');
  });
});

describe('registrationPage with lines', () => {
  const view = (p: Partial<ParticipantView> = {}, s: Partial<PublicSignupView> = {}) => ({
    participant: participant(p),
    signup: signup({ waitlist: WAITLIST_ON, ...s }),
    calendarUrl: CALENDAR_URL,
  });

  it('says the status in words and the position in each line, with the line named escaped, and leaves a waiting entry by form', () => {
    const page = registrationPage(view(), TOKEN, emptyForm()).value;
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('<p id="registration-status"><strong>Status:</strong> Confirmed: you are signed up.</p>');
    expect(page).toContain(
      `<p id="waitlist-${entry().id}">You are number 3 on the waitlist for &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;.</p>`,
    );
    expect(page).toContain(`<form method="post" action="${ACTION}/leave">`);
    expect(page).toContain(`aria-describedby="waitlist-${entry().id}">Leave the waitlist</button>`);
    expect(page).not.toContain('cancels your registration');
  });

  it('shows an offer with the time it is held until, Accept posting to accept and Decline to leave', () => {
    const offered = entry({
      state: 'offered',
      position: null,
      offeredAt: '2027-05-02T10:00:00Z',
      offerExpiresAt: '2027-05-02T11:00:00.000Z',
    });
    const page = registrationPage(view({ status: 'offered', selections: [], waitlist: [offered] }), TOKEN, emptyForm()).value;
    expect(page).toContain('A place is offered to you: accept it before the offer ends, or it passes to the next in line.');
    expect(page).toMatch(
      /A place is offered to you for .*, held until <time datetime="2027-05-02T11:00:00.000Z">Sun, May 2, 2027, 11:00 AM UTC<\/time>\./,
    );
    expect(page).toContain(`<form method="post" action="${ACTION}/accept">`);
    expect(page).toContain(`aria-describedby="waitlist-${offered.id} waitlist-${offered.id}-cancels">Accept</button>`);
    expect(page).toContain(`formaction="${ACTION}/leave"`);
    expect(page).toContain('>Decline</button>');
    expect(page).toContain('Declining cancels your registration.');
  });

  it("names the signup's own line, warns that leaving it cancels, and asks for no quantities while it waits", () => {
    const own = entry({ type: 'signup', targetId: '0190a0b2-7a3c-7def-8a12-1234567890ab', position: 1 });
    const page = registrationPage(view({ status: 'waitlisted', selections: [], waitlist: [own] }), TOKEN, emptyForm()).value;
    expect(page).toContain('On the waitlist: you are given a place when one frees up, in turn.');
    expect(page).toContain('You are number 1 on the waitlist for this signup.');
    expect(page).toContain('Leaving cancels your registration.');
    expect(page).toContain('You can choose slots and items once you have a place in the signup.');
    expect(page).not.toContain('id="slot-s1"');
  });

  it('keeps the line buttons of a closed signup until its event, and shows the positions without them after', () => {
    const closed = registrationPage(view({}, { status: 'closed' }), TOKEN, emptyForm()).value;
    expect(closed).toContain(`action="${ACTION}/leave"`);
    const past = registrationPage(view({}, { status: 'closed', eventDate: '2020-06-01T18:00:00.000Z' }), TOKEN, emptyForm()).value;
    expect(past).toContain('You are number 3 on the waitlist for');
    expect(past).not.toContain('/waitlist/');
  });

  it('confirms once what is held and each line joined with its position', () => {
    const registered = { manageUrl: `http://x/r/${TOKEN}`, failed: [] };
    const page = registrationPage(view(), TOKEN, emptyForm(), { registered }).value;
    expect(page).toContain('You&#39;re signed up, and on the waitlist for more — keep this link');
    expect(page).toContain('<h3>Confirmed</h3>\n<ul><li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: 1</li></ul>');
    expect(page).toContain('<h3>On the waitlist</h3>\n<ul><li>You are number 3 on the waitlist for &lt;script&gt;');
    const waiting = registrationPage(view({ status: 'waitlisted', selections: [] }), TOKEN, emptyForm(), { registered }).value;
    expect(waiting).toContain('You&#39;re on the waitlist — keep this link');
    expect(waiting).not.toContain('You are signed up without a slot or item.');
  });
});

describe('registrationPage calendar links', () => {
  const calendarOf = (p: Partial<ParticipantView>) => {
    const view = { participant: participant(p), signup: signup(), calendarUrl: CALENDAR_URL };
    const calendar = participantEvents({ ...view.signup, timeZone: 'UTC' }, view.participant, 'x');
    return registrationPage(view, TOKEN, emptyForm(), { calendar }).value;
  };

  it('links each held event to Google Calendar and Outlook in a new tab, escaped, and the participant’s own .ics file at its read-only address', () => {
    const page = calendarOf({ selections: [{ type: 'slot', id: 's1', quantity: 1 }] });
    expect(page).toContain('<h2 id="calendar-heading">Add to your calendar</h2>');
    expect(page).not.toMatch(/<script/i);
    const links = [...page.matchAll(/<a href="([^"]+)" target="_blank" rel="noopener" aria-describedby="([^"]+)">([^<]+)<\/a>/g)];
    expect(links.map((l) => [l[3], l[2]])).toEqual([
      ['Google Calendar', 'calendar-event-0 calendar-new-tab'],
      ['Outlook', 'calendar-event-0 calendar-new-tab'],
    ]);
    expect(page).toContain('<span id="calendar-event-0">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: &lt;script&gt;');
    expect(page).toContain('<p class="hint" id="calendar-new-tab">Google Calendar and Outlook open in a new tab.</p>');
    const google = new URL(links[0]![1]!.replaceAll('&amp;', '&'));
    expect(google.hostname).toBe('calendar.google.com');
    expect(google.searchParams.get('text')).toBe(`${EVIL}: ${EVIL}`);
    expect(google.searchParams.get('dates')).toBe('20270601T090000Z/20270601T110000Z');
    expect(new URL(links[1]![1]!.replaceAll('&amp;', '&')).hostname).toBe('outlook.live.com');
    expect(page).toContain(`<a href="${CALENDAR_URL}" download>Calendar file (.ics)</a>`);
    // The confirmation token is the edit link's secret: a calendar service that subscribes keeps the address it is given.
    expect(page).not.toContain(`/r/${TOKEN}/calendar.ics`);
  });

  it('offers no service link for a place only waited for, only the calendar file', () => {
    const page = calendarOf({ status: 'waitlisted', selections: [] });
    expect(page).toContain('Add to your calendar');
    expect(page).not.toContain('Google Calendar');
    expect(page).toContain(`<a href="${CALENDAR_URL}" download>`);
  });
});

describe('canceledPage', () => {
  it('says the registration is canceled, with what was just done above it', () => {
    const view = { participant: participant({ status: 'cancelled', waitlist: [] }), signup: signup(), calendarUrl: CALENDAR_URL };
    const page = canceledPage(view, { kind: 'success', text: 'You left the waitlist.' }).value;
    expect(page).toContain('<h1>Your registration is canceled</h1>');
    expect(page).toContain('<div class="success" role="status">\n<p>You left the waitlist.</p>');
    expect(page).not.toMatch(/<script|<form/i);
  });
});

describe('page forms', () => {
  it('reads the first value of repeated keys and ignores non-strings', () => {
    expect(readForm({ name: ['a', 'b'], n: 1, email: 'e' })).toEqual({ name: 'a', email: 'e' });
    expect(readForm(undefined)).toEqual({});
  });

  it('cuts a value longer than any field, after trimming it, and keeps shorter ones as sent', () => {
    expect(readForm({ name: ` ${'n'.repeat(5000)} `, email: ' a@b.test ' })).toEqual({
      name: 'n'.repeat(FORM_VALUE_MAX_LENGTH),
      email: ' a@b.test ',
    });
  });

  it('turns quantities above 0 into selections and refuses what is not a whole number', () => {
    const choices = choicesOf(signup());
    expect(readSelections(choices, { 'slot-s1': '0', 'item-i1': '2' })).toEqual({
      selections: [{ type: 'item', id: 'i1', quantity: 2 }],
      fields: ['item-i1'],
      errors: {},
    });
    expect(readSelections(choices, { 'slot-s1': '-1', 'item-i1': '1.5' }).errors).toEqual({
      'slot-s1': ['Enter a whole number, 0 or more'],
      'item-i1': ['Enter a whole number, 0 or more'],
    });
  });

  it('places selection errors on the quantity field and unknown paths in the summary', () => {
    const form = placeErrors(
      emptyForm(),
      [
        { path: 'selections.0.quantity', message: 'Too many' },
        { path: 'email', message: 'Invalid email' },
        { path: 'body', message: 'Odd' },
      ],
      ['item-i1'],
      ['name', 'email'],
    );
    expect(form.errors).toEqual({ 'item-i1': ['Too many'], email: ['Invalid email'] });
    expect(form.summary).toEqual(['Odd']);
  });
});

describe('waitlist moves', () => {
  it('sends the browser back to the registration with the move, and reads only a known one', () => {
    expect(movedLocation(TOKEN, 'accept')).toBe(`/r/${TOKEN}?waitlist=accept`);
    expect(readMove({ waitlist: 'leave' })).toBe('leave');
    expect(readMove({ waitlist: ['accept'] })).toBeUndefined();
    expect(readMove({ waitlist: '__proto__' })).toBeUndefined();
    expect(readMove(undefined)).toBeUndefined();
  });
});

describe("dates and times in the signup's time zone", () => {
  const zoned = signup({ timeZone: 'America/New_York', signupCloseDate: '2027-05-30T04:00:00.000Z' });

  it("shows the event in the signup's zone with its short name, keeping the instant as ISO for machines", () => {
    expect(signupPage(zoned, emptyForm()).value).toContain(
      '<p class="meta"><time datetime="2027-06-01T18:00:00.000Z">Tue, Jun 1, 2027, 2:00 PM EDT</time></p>',
    );
    expect(signupPage(signup({ timeZone: 'Asia/Calcutta' }), emptyForm()).value).toContain('Tue, Jun 1, 2027, 11:30 PM GMT+5:30</time>');
  });

  it("shows a slot's times as one span in the signup's zone", () => {
    expect(signupPage(zoned, emptyForm()).value).toContain('<span class="hint" id="slot-s1-hint">Tue, Jun 1, 2027, 5:00 – 7:00 AM EDT.');
  });

  it("shows when registrations closed in the signup's zone", () => {
    expect(notAccepting(zoned, Date.parse('2027-05-31T00:00:00Z'))).toBe('Registrations closed on Sun, May 30, 2027, 12:00 AM EDT.');
  });

  it("shows the registration's event, and an offer's end, in the signup's zone", () => {
    const offered = entry({
      state: 'offered',
      position: null,
      offeredAt: '2027-05-02T10:00:00Z',
      offerExpiresAt: '2027-05-02T11:00:00.000Z',
    });
    const registration = {
      participant: participant({ status: 'offered', selections: [], waitlist: [offered] }),
      signup: { ...zoned, waitlist: WAITLIST_ON },
      calendarUrl: CALENDAR_URL,
    };
    const page = registrationPage(registration, TOKEN, emptyForm()).value;
    expect(page).toContain('on <time datetime="2027-06-01T18:00:00.000Z">Tue, Jun 1, 2027, 2:00 PM EDT</time>.');
    expect(page).toContain('held until <time datetime="2027-05-02T11:00:00.000Z">Sun, May 2, 2027, 7:00 AM EDT</time>.');
    expect(canceledPage(registration).value).toContain('Tue, Jun 1, 2027, 2:00 PM EDT</time>');
  });
});
