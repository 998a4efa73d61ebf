import type { ParticipantView, ReminderChannelStatusView, ReminderStatusView } from '#libs/contracts';
import { signupViewData } from '#libs/testing';
import type { Viewer } from './frame.js';
import { ceilingNotice, passNotice, passQuery, remindersPage } from './reminders.js';

const EVIL = '<script>alert("x")</script>';
const RESETS_AT = '2027-06-02T00:00:00.000Z';

const viewer = (role = 'owner', tier = 'pro'): Viewer => ({
  email: 'owner@example.com',
  organization: { id: 'org_1', name: EVIL, tier, timeZone: 'UTC' },
  role,
  organizations: [],
  csrf: 'csrf-token',
});

const signup = signupViewData('org_1', {
  id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
  title: EVIL,
  eventDate: '2027-06-05T18:00:00.000Z',
  participantCount: 2,
});

const day = (overrides: Partial<ReminderChannelStatusView> = {}): ReminderChannelStatusView => ({
  available: true,
  ceiling: 50,
  used: 12,
  remaining: 38,
  resetsAt: RESETS_AT,
  usesCeiling: true,
  ...overrides,
});

const status = (overrides: Partial<ReminderStatusView['channels']> = {}): ReminderStatusView => ({
  channels: { sms: day({ ceiling: 200, used: 0, remaining: 200 }), email: day(), ...overrides },
  reminded: { sms: 1, email: 1 },
  lastSentAt: '2027-06-01T10:00:00.000Z',
});

const participant = (name: string, remindedAt: string | null): ParticipantView => ({
  id: `p-${name}`,
  signupId: signup.id,
  name,
  email: `${name.length}@example.com`,
  phone: null,
  selections: [],
  answers: {},
  createdAt: '2027-05-02T09:00:00.000Z',
  updatedAt: '2027-05-02T09:00:00.000Z',
  remindedAt,
  status: 'confirmed',
  statusChangedAt: '2027-05-02T09:00:00.000Z',
  cancelledAt: null,
  checkedInAt: null,
  noShowAt: null,
  hoursServed: null,
  waitlist: [],
  livemode: true,
});

describe('remindersPage', () => {
  it("shows what remains of each channel's ceiling today and when it resets", () => {
    const page = remindersPage(viewer(), signup, status(), []).value;
    expect(page).toContain('38 of 50 emails left today, resets at <time datetime="2027-06-02T00:00:00.000Z">');
    expect(page).toContain('200 of 200 texts left today');
    expect(page).toContain('<meter min="0" max="50" value="38">');
  });

  it('explains a channel the tier does not offer, and offers only the others', () => {
    const page = remindersPage(
      viewer('owner', 'free'),
      signup,
      status({ sms: day({ available: false, ceiling: 0, used: 0, remaining: 0 }) }),
      [],
    ).value;
    expect(page).toContain('SMS reminders come with the pro tier; &lt;script&gt;');
    expect(page).toContain('is on the free tier. You can change the tier of the organization.');
    expect(page).not.toContain('texts left today');
    expect(page).toContain('value="email" checked');
    expect(page).not.toContain('value="sms"');
    expect(page).not.toContain('value="both"');
  });

  it('says a sandbox signup uses no ceiling', () => {
    const page = remindersPage(viewer(), signup, status({ email: day({ usesCeiling: false }) }), []).value;
    expect(page).toContain('This is a test-mode signup: its reminders are stored, never sent, and use none of the ceiling.');
  });

  it('gives owners and admins the form to send now, by every channel the tier offers, with the CSRF token', () => {
    const page = remindersPage(viewer('admin'), signup, status(), []).value;
    expect(page).toContain(`<form method="post" action="/app/signups/${signup.id}/reminders">`);
    expect(page).toContain('<input type="hidden" name="csrf" value="csrf-token">');
    for (const channel of ['email', 'sms', 'both']) expect(page).toContain(`value="${channel}"`);
    expect(page).toContain('>Send now</button>');
  });

  it('shows a member no form', () => {
    const page = remindersPage(viewer('member'), signup, status(), []).value;
    expect(page).not.toContain('<form method="post" action="/app/signups/');
    expect(page).not.toContain('Send now</button>');
    expect(page).toContain('Owners and admins can send reminders.');
  });

  it('lists who was reminded and when, first reminded first, and counts those not reminded yet', () => {
    const page = remindersPage(viewer(), signup, status(), [
      participant('Bo', '2027-06-01T10:00:00.000Z'),
      participant('Ada', '2027-06-01T09:00:00.000Z'),
      participant('Cy', null),
    ]).value;
    expect(page.indexOf('<td>Ada</td>')).toBeLessThan(page.indexOf('<td>Bo</td>'));
    expect(page).not.toContain('<td>Cy</td>');
    expect(page).toContain('1 email and 1 text sent for this signup so far');
    expect(page).toContain('1 confirmed participant not reminded yet.');
  });

  it('escapes the signup, the organization and the participants', () => {
    const page = remindersPage(viewer(), signup, status(), [participant(EVIL, '2027-06-01T10:00:00.000Z')]).value;
    expect(page).not.toContain('<script>');
    expect(page).toContain('<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>');
  });
});

describe('the notices of a pass', () => {
  it("tells a pass's counts after the redirect, from its query", () => {
    const query = passQuery({
      eligible: 16,
      sent: 15,
      failed: 1,
      notEligible: [
        { reason: 'not_mobile', count: 1 },
        { reason: 'bounced', count: 1 },
      ],
      channels: {
        email: { eligible: 12, sent: 12, failed: 0, notEligible: [{ reason: 'bounced', count: 1 }] },
        sms: { eligible: 4, sent: 3, failed: 1, notEligible: [{ reason: 'not_mobile', count: 1 }] },
      },
    });
    expect(passNotice(Object.fromEntries(new URLSearchParams(query)))).toEqual({
      kind: 'success',
      text: 'Sent 12 emails and 3 texts; 2 not eligible: 1 not a mobile number, 1 bounced address. 1 text failed: they stay eligible for the next pass.',
    });
  });

  it("says who today's ceiling left for later", () => {
    const query = passQuery({
      eligible: 5,
      sent: 2,
      failed: 0,
      notEligible: [],
      channels: { email: { eligible: 5, sent: 2, failed: 0, notEligible: [] } },
    });
    expect(passNotice(Object.fromEntries(new URLSearchParams(query)))?.text).toBe(
      "Sent 2 emails. 3 not reached: today's ceiling ran out, they stay eligible for the next pass.",
    );
  });

  it('shows nothing for a query that is not a pass, and leaves out what is not a count', () => {
    expect(passNotice({})).toBeUndefined();
    expect(passNotice({ done: 'sent', email: EVIL })).toBeUndefined();
    expect(passNotice({ done: 'sent', sms: '1', bounced: EVIL })?.text).toBe('Sent 1 text.');
  });

  it('says the ceiling is used up and when it starts again', () => {
    expect(ceilingNotice(viewer(), 'email', status())).toEqual({
      kind: 'error',
      text: "Nothing was sent: the organization's emails for today are used up. The ceiling starts again at Wed, Jun 2, 2027, 12:00 AM UTC (midnight UTC).",
    });
  });
});
