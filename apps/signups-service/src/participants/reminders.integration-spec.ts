import { cloudEvent, newId } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_reminders', { transport: 'nats' });
});

afterAll(async () => {
  await h?.close();
});

describe('what the signups-service does for reminders', () => {
  it('answers the target signup of a reminders act to its owner only, with reminders:send', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const { signup: draft } = await h.signup(owner, { status: 'draft' });
    const target = (principal = owner, signupId = signup.id) => h.stack.bus.request('signups.reminders.target', { principal, signupId });

    expect(await target()).toMatchObject({ id: signup.id, status: 'published', organizationId: owner.organizationId });
    expect(await target(owner, draft.id)).toMatchObject({ status: 'draft' });
    expect(await problemOf(target(caller({ organizationId: owner.organizationId, scopes: ['signups:read'] })))).toMatchObject({
      code: 'scope_required',
    });
    expect(await problemOf(target(caller()))).toMatchObject({ code: 'forbidden' });
    expect(await problemOf(target(caller(), draft.id))).toMatchObject({ code: 'not_found' });
    expect(await problemOf(target(caller({ organizationId: owner.organizationId, livemode: true })))).toMatchObject({ code: 'not_found' });
  });

  it('records remindedAt from reminder.sent, keeping the first reminder', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person({ phone: '+14155550123' }), selections: [] },
    });
    const participants = () =>
      h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: {} }).then((page) => page.data);
    const [participant] = await participants();
    const reminded = (sentAt: string) =>
      cloudEvent(
        'reminders-service',
        'reminder.sent',
        {
          id: newId(),
          signupId: signup.id,
          participantId: participant!.id,
          trigger: 'manual',
          sentAt,
          organizationId: owner.organizationId,
          livemode: false,
          channel: 'sms',
        },
        { orgid: owner.organizationId, livemode: false, subject: signup.id },
      );
    expect(participant!.remindedAt).toBeNull();
    await h.stack.bus.publish(reminded('2026-11-20T09:00:00.000Z'));
    await eventually(async () => expect((await participants())[0]!.remindedAt).toBe('2026-11-20T09:00:00.000Z'));
    await h.stack.bus.publish(reminded('2026-11-21T09:00:00.000Z'));
    const marker = reminded('2026-11-22T09:00:00.000Z');
    await h.stack.bus.publish({ ...marker, data: { ...marker.data, participantId: newId() } });
    await eventually(async () => {
      const [{ count }] = (await h.app.context.dataSource!.query(
        `SELECT count(*)::int AS count FROM signups.processed_events WHERE event_id = $1`,
        [marker.id],
      )) as [{ count: number }];
      expect(count).toBe(1);
    });
    expect((await participants())[0]!.remindedAt).toBe('2026-11-20T09:00:00.000Z');
  });
});
