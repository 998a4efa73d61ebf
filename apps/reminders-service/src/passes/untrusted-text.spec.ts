import { type ReminderSubject, reminderText } from './reminder-text.js';
import { firstNameOf, titleOf } from './untrusted-text.js';

const SUBJECT: ReminderSubject = {
  title: 'Winter potluck',
  eventDate: '2026-12-05T17:00:00.000Z',
  timeZone: 'UTC',
  publicUrl: 'https://signups.example.test/s/winter-potluck-x7k2q9',
};

describe('first names in a text', () => {
  it('greets by the first word of the name', () => {
    expect(firstNameOf('Ana Lima')).toBe('Ana');
    expect(firstNameOf('  Zoë   Kravitz ')).toBe('Zoë');
    expect(firstNameOf("O'Neil")).toBe("O'Neil");
    expect(firstNameOf('Jean-Luc Picard')).toBe('Jean-Luc');
    expect(firstNameOf('李小龍')).toBe('李小龍');
  });

  it.each([
    'evil.example/win',
    'http://x',
    'https://evil.example',
    'hxxp://evil.example',
    'www.x.y',
    'WWW.EVIL.COM',
    'x.co',
    'evil.example',
    'bit.ly/abc',
    '(evil.example)',
    'xn--80ak6aa92e.com',
    'пример.рф',
    '192.168.0.1',
    'javascript:alert(1)',
    'tel:+19005550123',
  ])('leaves out a name that is a link: %s', (name) => {
    expect(firstNameOf(name)).toBeUndefined();
  });

  it.each([
    ['fullwidth characters', 'ｅｖｉｌ．ｅｘａｍｐｌｅ／ｗｉｎ'],
    ['a one dot leader', 'evil\u2024example'],
    ['an ideographic full stop', 'evil\u3002example'],
    ['a zero-width space', 'evil.\u200Bexample'],
    ['a soft hyphen', 'evil\u00AD.example'],
    ['a right-to-left override', '\u202Eelpmaxe.live'],
    ['a bracketed dot', 'evil[.]example'],
    ['a written-out dot', 'evil(dot)example'],
  ])('leaves out a link written with %s', (_how, name) => {
    expect(firstNameOf(name)).toBeUndefined();
  });

  it.each(['ana@example.com', 'ana＠example.com', 'mailto:ana@example.com', 'ana@localhost'])('leaves out an email address: %s', (name) => {
    expect(firstNameOf(name)).toBeUndefined();
  });

  it.each([
    '+19005550123',
    '+1 (900) 555-0123',
    '900-555-0123',
    '900.555.0123',
    '0909 876 5432',
    '88888',
    '+４４９０９８７６５４３２',
    '٩٠٠٥٥٥٠١٢٣',
  ])('leaves out a phone number or short code: %s', (name) => {
    expect(firstNameOf(name)).toBeUndefined();
  });

  it('greets by the first safe word when the name starts with a link, an email address or a phone number', () => {
    expect(firstNameOf('evil.example/win Ana')).toBe('Ana');
    expect(firstNameOf('+1 900 555 0123 Ana')).toBe('Ana');
    expect(firstNameOf('Ana+19005550123')).toBe('Ana');
  });

  it('keeps letters only: no digit, dot, slash or at sign is left to build a link from', () => {
    expect(firstNameOf('Ana2024')).toBe('Ana');
    expect(firstNameOf('Ana.')).toBe('Ana');
    expect(firstNameOf('Ana:')).toBe('Ana');
    expect(firstNameOf('"Ana"')).toBe('Ana');
    expect(firstNameOf('1234')).toBeUndefined();
    expect(firstNameOf('🎉')).toBeUndefined();
    expect(firstNameOf('-- Ana')).toBe('Ana');
  });

  it('cuts a long first name at 20 characters', () => {
    expect(firstNameOf('A'.repeat(200))).toBe('A'.repeat(20));
  });
});

describe('titles in a text', () => {
  it('keeps an ordinary title as it is', () => {
    expect(titleOf('Winter potluck')).toBe('Winter potluck');
    expect(titleOf("Class of 2024 reunion at Joe's, 6:30")).toBe("Class of 2024 reunion at Joe's, 6:30");
  });

  it('leaves out links, email addresses and phone numbers, word by word', () => {
    expect(titleOf('Winter potluck: tickets at evil.example/win!')).toBe('Winter potluck: tickets at');
    expect(titleOf('Potluck, call +1 (900) 555-0123 or write to ana@example.com')).toBe('Potluck, call or write to');
    expect(titleOf('Text WIN to 88888')).toBe('Text WIN to');
  });

  it('keeps a title on one line', () => {
    expect(titleOf('Winter potluck\n\nURGENT\tread this')).toBe('Winter potluck URGENT read this');
  });

  it('cuts a long title at 60 characters', () => {
    const title = titleOf('Neighbourhood potluck and winter fair with music, games and a raffle for everyone');
    expect(title).toBe('Neighbourhood potluck and winter fair with music, games a...');
    expect(title).toHaveLength(60);
  });

  it('is nothing when nothing safe is left', () => {
    expect(titleOf('evil.example/win')).toBeUndefined();
  });
});

describe('the reminder text', () => {
  it("says the date and time in the signup's zone, with its short name", () => {
    expect(reminderText('Ana', { ...SUBJECT, timeZone: 'America/Los_Angeles' })).toContain('is on Sat, Dec 5, 2026, 9:00 AM PST. ');
    expect(reminderText('Ana', { ...SUBJECT, timeZone: 'Asia/Calcutta' })).toContain('is on Sat, Dec 5, 2026, 10:30 PM GMT+5:30. ');
  });

  it('greets by the first name and names the title, date and time, link and STOP line', () => {
    expect(reminderText('Ana Lima', SUBJECT)).toBe(
      `Hi Ana, a reminder: Winter potluck is on Sat, Dec 5, 2026, 5:00 PM UTC. Details: ${SUBJECT.publicUrl} Reply STOP to opt out.`,
    );
  });

  it('carries no link but ours, whatever the participant and the organizer wrote', () => {
    const text = reminderText('evil.example/win', { ...SUBJECT, title: 'Prizes at www.evil.example, call 0909 876 5432' });
    expect(text).toBe(
      `Hi there, a reminder: Prizes at call is on Sat, Dec 5, 2026, 5:00 PM UTC. Details: ${SUBJECT.publicUrl} Reply STOP to opt out.`,
    );
    expect(reminderText('Ana', { ...SUBJECT, title: 'x.co' })).toMatch(/^Hi Ana, a reminder: your signup is on /);
  });
});
