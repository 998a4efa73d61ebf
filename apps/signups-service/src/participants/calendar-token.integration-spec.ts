import { PARTICIPANT_CALENDAR_TOKEN_PATTERN } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_calendar_tokens');
});

afterAll(async () => {
  await h?.close();
});

const calendarTokenOf = (url: string): string => /^https:\/\/api\.example\.test\/calendars\/(pcal_[0-9A-Za-z_-]{54})\.ics$/.exec(url)![1]!;

/** A registration for a slot of a fresh signup: its confirmation token and its read-only calendar token. */
async function registered(): Promise<{ token: string; calendarToken: string; participantId: string }> {
  const { signup, slots } = await h.signup(caller(), { slots: [{ title: 'Setup', capacity: 2 }] });
  const result = await h.stack.bus.request('signups.participants.register', {
    signupId: signup.id,
    input: { ...person(), selections: [{ type: 'slot', id: slots[0]!.id }] },
  });
  const token = result.confirmationToken!;
  const view = await h.stack.bus.request('signups.registrations.get', { token });
  return { token, calendarToken: calendarTokenOf(view.calendarUrl), participantId: view.participant.id };
}

describe("a participant's read-only calendar token", () => {
  it('is carried by every view of the registration as calendarUrl, apart from the confirmation token, and reads the registration', async () => {
    const { token, calendarToken, participantId } = await registered();
    expect(calendarToken).toMatch(PARTICIPANT_CALENDAR_TOKEN_PATTERN);
    expect(calendarToken).not.toContain(token.slice('cnf_'.length));
    const read = await h.stack.bus.request('signups.registrations.calendar', { token: calendarToken });
    expect(read).toEqual(await h.stack.bus.request('signups.registrations.get', { token }));
    expect(read.participant.id).toBe(participantId);
    const updated = await h.stack.bus.request('signups.registrations.update', { token, input: { name: 'Renamed' } });
    expect(calendarTokenOf(updated.calendarUrl)).toBe(calendarToken);
  });

  it('still reads a cancelled registration, so a subscribed calendar sees its events cancelled', async () => {
    const { token, calendarToken } = await registered();
    await h.stack.bus.request('signups.registrations.cancel', { token });
    expect((await h.stack.bus.request('signups.registrations.calendar', { token: calendarToken })).participant.status).toBe('cancelled');
  });

  it('opens nothing of the confirmation token: neither the registration nor any change of it', async () => {
    const { token, calendarToken } = await registered();
    const before = await h.stack.bus.request('signups.registrations.get', { token });
    const refusals = [
      h.stack.bus.request('signups.registrations.get', { token: calendarToken }),
      h.stack.bus.request('signups.registrations.update', { token: calendarToken, input: { name: 'Taken over' } }),
      h.stack.bus.request('signups.registrations.cancel', { token: calendarToken }),
      h.stack.bus.request('signups.registrations.leave', { token: calendarToken, entryId: before.participant.id }),
      h.stack.bus.request('signups.registrations.accept', { token: calendarToken, entryId: before.participant.id }),
    ];
    for (const refusal of refusals) expect((await problemOf(refusal)).code).toBe('not_found');
    expect(await h.stack.bus.request('signups.registrations.get', { token })).toEqual(before);
  });

  it('is the only token the calendar subject takes: a confirmation token, a forged or malformed one is not found', async () => {
    const { token, calendarToken } = await registered();
    const forged = `${calendarToken.slice(0, -2)}${calendarToken.at(-2) === 'A' ? 'B' : 'A'}${calendarToken.at(-1)}`;
    for (const value of [token, forged, `pcal_${'A'.repeat(54)}`, 'pcal_', `cal_${'a'.repeat(32)}`]) {
      expect((await problemOf(h.stack.bus.request('signups.registrations.calendar', { token: value }))).code).toBe('not_found');
    }
  });
});
