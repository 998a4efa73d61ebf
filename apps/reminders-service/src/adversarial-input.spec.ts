import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, repeatedTo } from '#libs/testing';
import { composeParticipantMessage } from './messages/compose.js';
import { MESSAGE_KINDS } from './messages/message-kind.js';
import { displayName, paragraphs, titleOf } from './messages/safe-text.js';
import { firstNameOf } from './passes/untrusted-text.js';
import { entry, messageContext } from './testing/message-context.js';

/** The longest texts the API takes: a title and a name 200 characters, a location 500, a description 5000. */
const TITLE = 200;
const NAME = 200;
const LOCATION = 500;
const DESCRIPTION = 5000;

/** Every kind of email, made from a context whose every text is the largest the API takes, shaped against the patterns. */
const largest = messageContext({
  signup: {
    title: repeatedTo(TITLE, ' \u202E\r\n'),
    description: repeatedTo(DESCRIPTION, '\r\n \t\u200B'),
    location: repeatedTo(LOCATION, ' <&'),
  },
  participant: { name: repeatedTo(NAME, 'a.'), waitlist: [entry()] },
  slots: messageContext().slots.map((slot) => ({ ...slot, title: repeatedTo(TITLE, ' \u2028') })),
  items: messageContext().items.map((item) => ({ ...item, name: repeatedTo(TITLE, '"<') })),
});

/** Every pattern of the reminders-service's emails over what organizers and participants wrote, each fed the largest input that reaches it. */
const ROWS: [string, () => unknown, number][] = [
  ['a title of spaces, overrides and line breaks', () => titleOf(repeatedTo(TITLE, ' \u202E\r\n', 'a', 'b')), ADVERSARIAL_BUDGET_MS],
  ['a display name of quotes and spaces', () => displayName(repeatedTo(NAME, '" ', 'a', 'b')), ADVERSARIAL_BUDGET_MS],
  ['a description of line breaks and spaces', () => paragraphs(repeatedTo(DESCRIPTION, '\r\n \t', 'a', 'b')), ADVERSARIAL_BUDGET_MS],
  ['a first name of dotted words', () => firstNameOf(repeatedTo(NAME, 'a.', '', 'b')), ADVERSARIAL_BUDGET_MS],
  [
    'every kind of email from the largest texts',
    () => MESSAGE_KINDS.map((kind) => composeParticipantMessage(largest, repeatedTo(NAME, ' "'), kind)),
    3 * ADVERSARIAL_BUDGET_MS,
  ],
];

describe('patterns over what organizers and participants wrote', () => {
  it.each(ROWS)('%s takes linear time', (_label, call, budget) => {
    expect(cpuMillisOf(call, { enough: budget })).toBeLessThan(budget);
  });
});
