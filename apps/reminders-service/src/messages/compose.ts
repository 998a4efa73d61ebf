import type { ParticipantMessageContext, WaitlistEntryView } from '#libs/contracts';
import { firstNameOf } from '../passes/untrusted-text.js';
import { type CalendarPart, participantEvents } from './calendar-part.js';
import { type Block, type MessageDocument, renderHtml, renderText, type Span, user } from './message-document.js';
import type { MessageKind } from './message-kind.js';
import { cut, oneLine, paragraphs, titleOf } from './safe-text.js';
import { dateTime, range, shortDate, zoneOf } from './when.js';

/** One email to a participant: its subject, both parts, and the invite it carries (the lead attaches it as .ics). */
export interface ParticipantMessage {
  subject: string;
  text: string;
  html: string;
  calendar?: CalendarPart;
}

/** Longest organization name the footer carries. */
const ORGANIZATION_MAX = 100;
/** Longest slot or item label a list carries (the API takes 200). */
const LABEL_MAX = 200;

const NO_EDIT_LINK = 'To change or cancel your registration, use the link from your confirmation page.';

/** What a message says about the context, once: names made safe, times in the signup's zone. */
class Facts {
  readonly title: string;
  readonly zone: string;
  readonly greeting: string;
  readonly organization: string;

  constructor(
    readonly context: ParticipantMessageContext,
    organizationName: string,
  ) {
    this.title = titleOf(context.signup.title);
    this.zone = zoneOf(context.signup.timeZone);
    this.greeting = `Hi ${firstNameOf(context.participant.name) ?? 'there'},`;
    this.organization = cut(oneLine(organizationName), ORGANIZATION_MAX) || 'the organizer';
  }

  /** A slot's or item's name as the lists show it; "the event" for the signup's own line. */
  label(type: string, id: string): string {
    if (type === 'signup') return 'the event';
    const label = type === 'slot' ? this.context.slots.find((s) => s.id === id)?.title : this.context.items.find((i) => i.id === id)?.name;
    return cut(oneLine(label ?? ''), LABEL_MAX) || (type === 'slot' ? 'a slot' : 'an item');
  }

  when(iso: string): string {
    return dateTime(iso, this.zone);
  }

  /** When and where, as the summary opens. */
  whenWhere(): Block {
    const { signup } = this.context;
    const where = signup.location === null ? '' : oneLine(signup.location);
    return {
      kind: 'facts',
      rows: [{ label: 'When', value: [this.when(signup.eventDate)] }, ...(where ? [{ label: 'Where', value: [user(where)] }] : [])],
    };
  }

  /** What the participant holds: each slot with its times and places, each item with its quantity. */
  held(): Block[] {
    const { participant } = this.context;
    if (participant.selections.length === 0) {
      return participant.waitlist.length === 0 ? [{ kind: 'paragraph', spans: ['You are signed up for the event itself.'] }] : [];
    }
    const items = participant.selections.map((selection): Span[] => {
      const label = user(this.label(selection.type, selection.id));
      if (selection.type === 'item') return [label, `: ${selection.quantity}`];
      const slot = this.context.slots.find((s) => s.id === selection.id);
      const times = slot?.startsAt ? `: ${range(slot.startsAt, slot.endsAt, this.zone)}` : '';
      return [label, times, ...(selection.quantity > 1 ? [` (${selection.quantity} places)`] : [])];
    });
    return [
      { kind: 'heading', text: 'You signed up for' },
      { kind: 'list', items },
    ];
  }

  /** One line the participant is in: its position, or the offer and until when it is held. */
  line(entry: WaitlistEntryView): Span[] {
    const label = user(this.label(entry.type, entry.targetId));
    if (entry.state === 'offered') return [label, `: a place is held for you until ${this.when(entry.offerExpiresAt!)}`];
    return [label, entry.position === null ? ': on the waitlist' : `: number ${entry.position} in line`];
  }

  /** The lines the participant waits in, when it waits in any. */
  lines(): Block[] {
    const { waitlist } = this.context.participant;
    if (waitlist.length === 0) return [];
    return [
      { kind: 'heading', text: 'On the waitlist' },
      { kind: 'list', items: waitlist.map((entry) => this.line(entry)) },
    ];
  }

  /** The organizer's description, when there is one. */
  description(): Block[] {
    const text = this.context.signup.description === null ? '' : paragraphs(this.context.signup.description);
    return text
      ? [
          { kind: 'heading', text: 'About the event' },
          { kind: 'text', text },
        ]
      : [];
  }

  /** The edit link, or why there is none. */
  manage(text = 'Change or cancel your registration'): Block {
    const { manageUrl } = this.context;
    return manageUrl === null ? { kind: 'paragraph', spans: [NO_EDIT_LINK] } : { kind: 'link', text, href: manageUrl };
  }

  eventPage(): Block {
    return { kind: 'link', text: 'View the event page', href: this.context.signup.publicUrl };
  }

  footer(): Span[][] {
    return [
      ['You are getting this email because you signed up for ', user(this.title), ', organized by ', user(this.organization), '.'],
      ...(this.context.signup.livemode ? [] : [['This is a test message: the signup is in sandbox mode.']]),
    ];
  }
}

interface Draft {
  subject: string;
  heading: string;
  blocks: Block[];
  calendar?: CalendarPart['method'];
}

const intro = (facts: Facts, ...spans: Span[]): Block[] => [
  { kind: 'paragraph', spans: [facts.greeting] },
  { kind: 'paragraph', spans },
];

/** Each kind's subject, heading and blocks. */
const DRAFTS: Record<MessageKind, (facts: Facts) => Draft> = {
  confirmation: (f) => ({
    subject: `You're signed up: ${f.title}`,
    heading: "You're signed up",
    blocks: [
      ...intro(f, 'Thanks for signing up for ', user(f.title), '. Here are the details.'),
      f.whenWhere(),
      ...f.held(),
      ...f.lines(),
      ...f.description(),
      f.manage(),
      ...(f.context.manageUrl === null
        ? []
        : [{ kind: 'paragraph', spans: ['Keep this email: its link is how you change or cancel your registration.'] } as Block]),
      f.eventPage(),
    ],
    calendar: 'REQUEST',
  }),
  change: (f) => ({
    subject: `Your registration was updated: ${f.title}`,
    heading: 'Your registration was updated',
    blocks: [
      ...intro(f, 'Your registration for ', user(f.title), ' changed. This is what it looks like now.'),
      f.whenWhere(),
      ...f.held(),
      ...f.lines(),
      f.manage(),
      f.eventPage(),
    ],
    calendar: 'REQUEST',
  }),
  cancellation: (f) => ({
    subject: `Your registration is cancelled: ${f.title}`,
    heading: 'Your registration is cancelled',
    blocks: [
      ...intro(
        f,
        'Your registration for ',
        user(f.title),
        ` on ${f.when(f.context.signup.eventDate)} is cancelled, and your places are free for others.`,
      ),
      { kind: 'paragraph', spans: ['If you did not expect this, please contact the organizer, ', user(f.organization), '.'] },
      ...(f.context.signup.status === 'published'
        ? [
            {
              kind: 'paragraph',
              spans: ['Changed your mind? You can sign up again on the event page while it takes registrations.'],
            } as Block,
            f.eventPage(),
          ]
        : []),
    ],
    calendar: 'CANCEL',
  }),
  waitlisted: (f) => ({
    subject: `You're on the waitlist: ${f.title}`,
    heading: "You're on the waitlist",
    blocks: [
      ...intro(f, 'Thanks for signing up for ', user(f.title), '. It is full for now, so you are on the waitlist.'),
      ...f.lines(),
      { kind: 'paragraph', spans: ['When a place opens up for you, we will email you right away.'] },
      f.whenWhere(),
      f.manage('Change your registration or leave the waitlist'),
      f.eventPage(),
    ],
  }),
  offer: (f) => {
    const offers = f.context.participant.waitlist.filter((entry) => entry.state === 'offered');
    const links = new Map(f.context.offers.map((offer) => [offer.entryId, offer]));
    const several = offers.length > 1;
    return {
      subject: `A place opened up for you: ${f.title}`,
      heading: 'A place opened up for you',
      blocks: [
        ...intro(f, 'Good news: a place opened up at ', user(f.title), ', and it is held for you.'),
        ...(offers.length > 0 ? [{ kind: 'list', items: offers.map((entry) => f.line(entry)) } as Block] : []),
        {
          kind: 'paragraph',
          spans: [`Accept ${offers.length > 1 ? 'each' : 'it'} before then, or the place passes to the next person in line.`],
        },
        f.whenWhere(),
        ...offers.flatMap((entry): Block[] => {
          const link = links.get(entry.id);
          if (!link) return [];
          const what = several ? ` for ${f.label(entry.type, entry.targetId)}` : '';
          return [
            { kind: 'link', text: `Accept the place${what}`, href: link.acceptUrl },
            { kind: 'link', text: `Decline the place${what}`, href: link.declineUrl },
          ];
        }),
        ...(links.size === 0
          ? [
              {
                kind: 'paragraph',
                spans: ['To accept or decline, open your registration with the link from your confirmation page.'],
              } as Block,
            ]
          : []),
        f.eventPage(),
      ],
    };
  },
  promoted: (f) => ({
    subject: `You got a place: ${f.title}`,
    heading: 'You got a place',
    blocks: [
      ...intro(f, 'Good news: a place opened up at ', user(f.title), ', and it is yours now.'),
      f.whenWhere(),
      ...f.held(),
      ...f.lines(),
      f.manage(),
      f.eventPage(),
    ],
    calendar: 'REQUEST',
  }),
  reminder: (f) => ({
    subject: `Reminder: ${f.title} on ${shortDate(f.context.signup.eventDate, f.zone)}`,
    heading: 'See you soon',
    blocks: [
      ...intro(f, 'A reminder: ', user(f.title), ` is on ${f.when(f.context.signup.eventDate)}.`),
      f.whenWhere(),
      ...f.held(),
      ...f.lines(),
      ...f.description(),
      f.manage(),
      f.eventPage(),
    ],
  }),
};

/**
 * The email of `kind` to the participant of `context`, from `organizationName` (pure: no I/O).
 * Subjects and every name in them are one line, cut with an ellipsis; the HTML part escapes and
 * isolates every text others wrote. confirmation, change and promoted carry an invite (REQUEST) of
 * the places held, cancellation one that removes them (CANCEL); none while nothing is held.
 */
export function composeParticipantMessage(
  context: ParticipantMessageContext,
  organizationName: string,
  kind: MessageKind,
): ParticipantMessage {
  const facts = new Facts(context, organizationName);
  const draft = DRAFTS[kind](facts);
  const doc: MessageDocument = { title: draft.subject, heading: draft.heading, blocks: draft.blocks, footer: facts.footer() };
  const events = draft.calendar ? participantEvents(context) : [];
  return {
    subject: draft.subject,
    text: renderText(doc),
    html: renderHtml(doc),
    ...(draft.calendar && events.length > 0 && { calendar: { method: draft.calendar, events } }),
  };
}
