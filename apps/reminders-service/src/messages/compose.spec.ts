import { calendarUid, sequenceOf } from '#libs/calendar';
import type { ParticipantMessageContext } from '#libs/contracts';
import { entry, IDS, messageContext, ORIGIN, TOKEN } from '../testing/message-context.js';
import { composeParticipantMessage } from './compose.js';
import { MESSAGE_KINDS, type MessageKind } from './message-kind.js';

const ORGANIZATION = 'Friends of the Park';
const MANAGE_URL = `${ORIGIN}/r/${TOKEN}`;
const PUBLIC_URL = `${ORIGIN}/s/winter-potluck-x7k2q9`;
const OFFER_EXPIRES = '2026-12-01T15:30:00.000Z';

const offered = entry({ state: 'offered', position: null, offeredAt: '2026-11-30T15:30:00.000Z', offerExpiresAt: OFFER_EXPIRES });
const offerLinks = {
  entryId: IDS.entry,
  type: 'slot' as const,
  targetId: IDS.cleanup,
  acceptUrl: `${MANAGE_URL}#waitlist-${IDS.entry}`,
  declineUrl: `${MANAGE_URL}#waitlist-${IDS.entry}`,
};

/** The context each kind is made from in practice. */
const CONTEXTS: Record<MessageKind, ParticipantMessageContext> = {
  confirmation: messageContext({ participant: { waitlist: [entry()] } }),
  change: messageContext({ participant: { selections: [{ type: 'item', id: IDS.salad, quantity: 3 }] } }),
  cancellation: messageContext({
    participant: { status: 'cancelled', cancelledAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-25T10:00:00.000Z' },
  }),
  waitlisted: messageContext({ participant: { status: 'waitlisted', selections: [], waitlist: [entry()] } }),
  offer: messageContext({ participant: { status: 'offered', selections: [], waitlist: [offered] }, offers: [offerLinks] }),
  promoted: messageContext({ participant: { selections: [{ type: 'slot', id: IDS.cleanup, quantity: 1 }] } }),
  reminder: messageContext(),
};

const compose = (kind: MessageKind, context = CONTEXTS[kind], organization = ORGANIZATION) =>
  composeParticipantMessage(context, organization, kind);

/** The href of every link of the HTML part. */
const hrefs = (html: string) => Array.from(html.matchAll(/<a href="([^"]*)"/g), (m) => m[1]!.replaceAll('&amp;', '&'));
/** The HTML part's text, tags removed. */
const htmlText = (html: string) => html.replace(/<[^>]*>/g, '');

describe.each(MESSAGE_KINDS)('the %s message', (kind) => {
  const message = compose(kind);

  it('has a subject on one line naming the title, a text part and an HTML part', () => {
    expect(message.subject).toContain('Winter potluck');
    expect(message.subject).not.toMatch(/[\r\n]/);
    expect(message.text).toMatch(/^\S.*\n\nHi Ana,\n\n/);
    expect(message.html).toMatch(/^<!DOCTYPE html>\n<html lang="en" dir="ltr">/);
    expect(message.html).toContain(`<title>${message.subject.replaceAll("'", '&#39;')}</title>`);
    expect(message.html).toMatch(/<h1 [^>]*>[^<]+<\/h1>/);
  });

  it('says the same in both parts', () => {
    for (const phrase of ['Hi Ana,', 'Winter potluck', ORGANIZATION, 'You are getting this email because you signed up for']) {
      expect(message.text).toContain(phrase);
      expect(htmlText(message.html)).toContain(phrase);
    }
  });

  it('states the date and time in the signup’s time zone', () => {
    const when = kind === 'offer' ? 'Tuesday, December 1, 2026 at 10:30 AM EST' : 'Saturday, December 5, 2026 at 12:00 PM EST';
    expect(message.text).toContain(when);
    expect(message.html).toContain(when);
    expect(message.text).not.toContain('UTC');
  });

  it('gives every link a text that says where it leads', () => {
    for (const match of message.html.matchAll(/<a [^>]*>([^<]*)<\/a>/g)) expect(match[1]).toMatch(/^(Change|Accept|Decline|View)/);
  });

  it('marks a live message as nothing but what it is, and a sandbox one as a test', () => {
    expect(message.text).not.toContain('test message');
    const sandbox = compose(kind, { ...CONTEXTS[kind], signup: { ...CONTEXTS[kind].signup, livemode: false } });
    expect(sandbox.text).toContain('This is a test message: the signup is in sandbox mode.');
    expect(sandbox.html).toContain('This is a test message: the signup is in sandbox mode.');
  });
});

describe('subjects and wording', () => {
  it.each<[MessageKind, string]>([
    ['confirmation', "You're signed up: Winter potluck"],
    ['change', 'Your registration was updated: Winter potluck'],
    ['cancellation', 'Your registration is cancelled: Winter potluck'],
    ['waitlisted', "You're on the waitlist: Winter potluck"],
    ['offer', 'A place opened up for you: Winter potluck'],
    ['promoted', 'You got a place: Winter potluck'],
    ['reminder', 'Reminder: Winter potluck on Sat, Dec 5'],
  ])('%s: "%s"', (kind, subject) => {
    expect(compose(kind).subject).toBe(subject);
  });

  it('confirms with the date, the place, each slot with its times, each item with its quantity, each line with its position, and the links', () => {
    const { text, html } = compose('confirmation');
    expect(text).toContain('When: Saturday, December 5, 2026 at 12:00 PM EST\nWhere: Town hall, 1 Main St');
    expect(text).toContain('You signed up for\n-----------------\n\n- Setup: Sat, Dec 5, 11:00 AM – 1:00 PM EST\n- Salad: 2');
    expect(text).toContain('On the waitlist\n---------------\n\n- Cleanup: number 2 in line');
    expect(text).toContain('About the event\n---------------\n\nBring a dish to share.\nParking behind the hall.');
    expect(text).toContain(`Change or cancel your registration:\n${MANAGE_URL}`);
    expect(text).toContain(`View the event page:\n${PUBLIC_URL}`);
    expect(hrefs(html)).toEqual([MANAGE_URL, PUBLIC_URL]);
    expect(html).toContain('<li><bdi>Setup</bdi>: Sat, Dec 5, 11:00 AM – 1:00 PM EST</li>');
    expect(html).toContain('Bring a dish to share.<br>\nParking behind the hall.');
  });

  it('counts the places of a slot held more than once, and names a slot without times by its title', () => {
    const context = messageContext({
      participant: { selections: [{ type: 'slot', id: IDS.setup, quantity: 3 }] },
      slots: [{ id: IDS.setup, title: 'Setup', startsAt: null, endsAt: null, updatedAt: '2026-11-22T10:00:00.000Z' }],
    });
    expect(compose('change', context).text).toContain('- Setup (3 places)\n');
  });

  it('tells one who signed up without a slot or item that they are signed up for the event', () => {
    expect(compose('confirmation', messageContext({ participant: { selections: [] } })).text).toContain(
      'You are signed up for the event itself.',
    );
  });

  it('tells one on the waitlist their position and that an email comes when a place opens', () => {
    const { text } = compose('waitlisted');
    expect(text).toContain('- Cleanup: number 2 in line');
    expect(text).toContain('When a place opens up for you, we will email you right away.');
    expect(text).toContain(`Change your registration or leave the waitlist:\n${MANAGE_URL}`);
    const signupLine = compose(
      'waitlisted',
      messageContext({
        participant: { status: 'waitlisted', selections: [], waitlist: [entry({ type: 'signup', targetId: IDS.signup, position: 4 })] },
      }),
    );
    expect(signupLine.text).toContain('- the event: number 4 in line');
  });

  it('offers the place until its deadline, in the zone, with links to accept and decline on the registration page', () => {
    const { text, html } = compose('offer');
    expect(text).toContain('- Cleanup: a place is held for you until Tuesday, December 1, 2026 at 10:30 AM EST');
    expect(text).toContain('Accept it before then, or the place passes to the next person in line.');
    expect(text).toContain(`Accept the place:\n${offerLinks.acceptUrl}`);
    expect(text).toContain(`Decline the place:\n${offerLinks.declineUrl}`);
    expect(hrefs(html)).toEqual([offerLinks.acceptUrl, offerLinks.declineUrl, PUBLIC_URL]);
    expect(offerLinks.acceptUrl).toBe(`${MANAGE_URL}#waitlist-${IDS.entry}`);
  });

  it('shows no empty list when the offer it was made for is no longer held', () => {
    const { html } = compose('offer', messageContext({ offers: [] }));
    expect(html).not.toContain('<ul');
  });

  it('names each offer in its links when several are held', () => {
    const salad = entry({
      id: '01938a6e-0000-7000-8000-000000000007',
      type: 'item',
      targetId: IDS.salad,
      state: 'offered',
      position: null,
      offerExpiresAt: OFFER_EXPIRES,
    });
    const context = messageContext({
      participant: { status: 'offered', selections: [], waitlist: [offered, salad] },
      offers: [
        offerLinks,
        {
          ...offerLinks,
          entryId: salad.id,
          type: 'item',
          targetId: IDS.salad,
          acceptUrl: `${MANAGE_URL}#waitlist-${salad.id}`,
          declineUrl: `${MANAGE_URL}#waitlist-${salad.id}`,
        },
      ],
    });
    const { text } = compose('offer', context);
    expect(text).toContain('Accept the place for Cleanup:');
    expect(text).toContain('Decline the place for Salad:');
    expect(text).toContain('Accept each before then');
  });

  it('cancels with the date, whom to ask, and a way back while the signup takes registrations', () => {
    const { text, html } = compose('cancellation');
    expect(text).toContain('Your registration for Winter potluck on Saturday, December 5, 2026 at 12:00 PM EST is cancelled');
    expect(text).toContain('please contact the organizer, Friends of the Park.');
    expect(hrefs(html)).toEqual([PUBLIC_URL]);
    const closed = compose('cancellation', { ...CONTEXTS.cancellation, signup: { ...CONTEXTS.cancellation.signup, status: 'closed' } });
    expect(hrefs(closed.html)).toEqual([]);
    expect(closed.text).not.toContain('sign up again');
  });

  it('reminds with the summary, the description and the links', () => {
    const { text, html } = compose('reminder');
    expect(text).toContain('A reminder: Winter potluck is on Saturday, December 5, 2026 at 12:00 PM EST.');
    expect(text).toContain('- Setup: Sat, Dec 5, 11:00 AM – 1:00 PM EST');
    expect(text).toContain('Bring a dish to share.');
    expect(hrefs(html)).toEqual([MANAGE_URL, PUBLIC_URL]);
  });

  it('promotes with what is held now', () => {
    const { text } = compose('promoted');
    expect(text).toContain('a place opened up at Winter potluck, and it is yours now.');
    expect(text).toContain('- Cleanup: Sat, Dec 5, 3:00 PM EST\n');
  });

  it('states times in UTC for a signup in UTC, and in UTC for a zone this runtime does not know', () => {
    for (const timeZone of ['UTC', 'Mars/Olympus_Mons']) {
      const { text, calendar } = compose('confirmation', messageContext({ signup: { timeZone } }));
      expect(text).toContain('When: Saturday, December 5, 2026 at 5:00 PM UTC');
      expect(text).toContain('- Setup: Sat, Dec 5, 4:00 – 6:00 PM UTC');
      expect(calendar!.events[0]!.timeZone).toBe('UTC');
    }
  });
});

describe('without an edit link (registered before tokens were kept)', () => {
  it.each<MessageKind>(['confirmation', 'change', 'waitlisted', 'promoted', 'reminder'])(
    'the %s message says to use the link from the confirmation page',
    (kind) => {
      const message = compose(kind, { ...CONTEXTS[kind], manageUrl: null });
      expect(message.text).toContain('To change or cancel your registration, use the link from your confirmation page.');
      expect(message.text).not.toContain('/r/');
      expect(hrefs(message.html)).toEqual([PUBLIC_URL]);
      expect(message.text).not.toContain('Keep this email');
    },
  );

  it('the offer says to accept or decline from the registration', () => {
    const message = compose('offer', { ...CONTEXTS.offer, manageUrl: null, offers: [] });
    expect(message.text).toContain('To accept or decline, open your registration with the link from your confirmation page.');
    expect(hrefs(message.html)).toEqual([PUBLIC_URL]);
  });
});

describe('the invite', () => {
  const host = 'signups.example.test';

  it('requests one event per timed slot held, with its UID, SEQUENCE, times, zone, summary, place and link', () => {
    const { calendar } = compose('confirmation');
    expect(calendar).toEqual({
      method: 'REQUEST',
      events: [
        {
          uid: `participant-${IDS.participant}-slot-${IDS.setup}@${host}`,
          sequence: sequenceOf('2026-11-20T09:00:00.000Z', '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z'),
          start: '2026-12-05T16:00:00.000Z',
          end: '2026-12-05T18:00:00.000Z',
          timeZone: 'America/New_York',
          summary: 'Winter potluck: Setup',
          location: 'Town hall, 1 Main St',
          description: `Event page: ${PUBLIC_URL}`,
          url: PUBLIC_URL,
        },
      ],
    });
    expect(calendar!.events[0]!.uid).toBe(calendarUid.participantSlot(host, IDS.participant, IDS.setup));
  });

  it('keeps the edit link, a secret, out of every invitation (calendars are shared and synced)', () => {
    for (const kind of MESSAGE_KINDS) {
      const { calendar } = compose(kind, CONTEXTS[kind]);
      expect(JSON.stringify(calendar ?? {})).not.toContain(MANAGE_URL);
    }
  });

  it("requests the signup's date when no timed slot is held", () => {
    const { calendar } = compose(
      'confirmation',
      messageContext({ participant: { selections: [{ type: 'item', id: IDS.salad, quantity: 1 }] }, manageUrl: null }),
    );
    expect(calendar!.events).toEqual([
      expect.objectContaining({
        uid: `participant-${IDS.participant}@${host}`,
        start: '2026-12-05T17:00:00.000Z',
        end: null,
        summary: 'Winter potluck',
        description: `Event page: ${PUBLIC_URL}`,
        url: PUBLIC_URL,
      }),
    ]);
  });

  it('comes with change and promoted, and cancels the same events on cancellation with a higher SEQUENCE', () => {
    const confirmation = compose('confirmation').calendar!.events[0]!;
    expect(compose('change').calendar!.method).toBe('REQUEST');
    expect(compose('promoted').calendar).toMatchObject({
      method: 'REQUEST',
      events: [{ uid: `participant-${IDS.participant}-slot-${IDS.cleanup}@${host}`, end: null }],
    });
    const cancellation = compose('cancellation').calendar!;
    expect(cancellation.method).toBe('CANCEL');
    expect(cancellation.events.map((e) => e.uid)).toEqual([confirmation.uid]);
    expect(cancellation.events[0]!.sequence).toBeGreaterThan(confirmation.sequence);
  });

  it('grows SEQUENCE with any later updatedAt, and fits a 32-bit integer', () => {
    const later = compose(
      'change',
      messageContext({ slots: CONTEXTS.confirmation.slots.map((s) => ({ ...s, updatedAt: '2026-11-29T12:00:00.000Z' })) }),
    );
    const sequence = later.calendar!.events[0]!.sequence;
    expect(sequence).toBeGreaterThan(compose('confirmation').calendar!.events[0]!.sequence);
    expect(sequence).toBeLessThan(2 ** 31);
  });

  it('is left out while nothing is held: waitlisted, offered, and the reminder', () => {
    for (const kind of ['waitlisted', 'offer', 'reminder'] as const) expect(compose(kind).calendar).toBeUndefined();
    const waiting = messageContext({ participant: { status: 'waitlisted', selections: [], waitlist: [entry()] } });
    expect(compose('change', waiting).calendar).toBeUndefined();
  });
});

describe('hostile names, titles and descriptions', () => {
  const hostile = messageContext({
    signup: {
      title: '<script>alert("title")</script>\r\nBcc: victim@example.test\r\n\r\n<b>bold</b>',
      description: '</p><script>alert(1)</script><img src=x onerror=alert(2)>\n<a href="https://evil.example">click</a>',
      location: '<iframe src="https://evil.example"></iframe>',
    },
    participant: { name: 'Ana <script>alert("name")</script>' },
    slots: [
      {
        id: IDS.setup,
        title: '<svg onload=alert(3)>',
        startsAt: '2026-12-05T16:00:00.000Z',
        endsAt: null,
        updatedAt: '2026-11-22T10:00:00.000Z',
      },
    ],
    items: [{ id: IDS.salad, name: '"><script>alert(4)</script>', updatedAt: '2026-11-22T10:00:00.000Z' }],
  });
  const messages = MESSAGE_KINDS.map((kind) => compose(kind, hostile, '<script>alert("org")</script> & Co'));

  it('escapes every one of them in the HTML part: no tag or attribute of theirs survives', () => {
    for (const { html } of messages) {
      expect(html).not.toMatch(/<(script|img|iframe|svg|b)\b/i);
      expect(html).not.toMatch(/<a href="https:\/\/evil/);
      expect(html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;');
      expect(html).toContain('&lt;script&gt;alert(&quot;org&quot;)&lt;/script&gt; &amp; Co');
    }
    expect(messages[0]!.html).toContain('&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;<br>');
    expect(messages[0]!.html).toContain('<bdi>&lt;svg onload=alert(3)&gt;</bdi>');
    expect(messages[0]!.html).toContain('<bdi>&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;</bdi>');
  });

  it('keeps a title with CR/LF on one line in the subject: no header can be added', () => {
    for (const { subject } of messages) {
      expect(subject).not.toMatch(/[\r\n\u0000-\u001F\u007F]/);
      expect(subject).toContain('<script>alert("title")</script> Bcc: victim@example.test <b>bold</b>');
    }
  });

  it('greets by a first name with no markup and no link', () => {
    for (const { text } of messages) expect(text).toContain('\n\nHi Ana,\n\n');
    expect(compose('confirmation', messageContext({ participant: { name: '<b>Ana</b>' } })).text).toMatch(/\n\nHi \p{L}+,\n\n/u);
    expect(compose('confirmation', messageContext({ participant: { name: 'https://evil.example/win' } })).text).toContain('Hi there,');
  });

  it('cuts a 10,000-character title in the subject and the text, with an ellipsis', () => {
    const long = compose('confirmation', messageContext({ signup: { title: `${'Potluck '.repeat(1250)}` } }));
    expect(Array.from(long.subject).length).toBeLessThanOrEqual(120);
    expect(long.subject).toMatch(/^You're signed up: (Potluck ){9}Potluck…$/);
    expect(long.text.length).toBeLessThan(3000);
  });

  it('drops bidi overrides and zero-width characters from the subject, and isolates right-to-left text in the HTML', () => {
    const message = compose(
      'confirmation',
      messageContext({ signup: { title: '\u202Egnp.exe\u202C \u200Bמסיבה\u200B' }, participant: { name: 'דנה כהן' } }),
    );
    expect(message.subject).toBe("You're signed up: gnp.exe מסיבה");
    expect(message.html).toContain('<bdi>gnp.exe מסיבה</bdi>');
    expect(message.text).toContain('Hi דנה,');
  });

  it('keeps emoji whole', () => {
    const message = compose('confirmation', messageContext({ signup: { title: `🎉 Potluck 👩‍👩‍👧 ${'🥗'.repeat(200)}` } }));
    expect(message.subject).toMatch(/^You're signed up: 🎉 Potluck 👩‍👩‍👧 (🥗)+…$/u);
    expect(message.html).toContain('🎉 Potluck 👩‍👩‍👧');
  });
});
