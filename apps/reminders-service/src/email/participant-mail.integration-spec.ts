import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import ICAL from 'ical.js';
import type { DataSource } from 'typeorm';
import { authServerApp } from '#apps/auth-server';
import { signupsServiceApp } from '#apps/signups-service';
import {
  type CloudEvent,
  type CreateSignupInput,
  type CreateSlotInput,
  type EmailView,
  newPrefixedId,
  type Principal,
  type SelectionInput,
  utcDay,
} from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { ALL_SCOPES } from '#libs/scopes';
import { createTestStack, eventually, type TestStack } from '#libs/testing';
import { remindersServiceApp } from '../index.js';
import { ParticipantMail } from './participant-mail.js';

const PUBLIC_BASE_URL = 'https://signups.example.test/api/v1';
const ADMIN_TOKEN = 'participant-mail-admin-token';

let stack: TestStack;
let reminders: RunningApp;
let db: DataSource;
let owner: Principal;
const changes: CloudEvent[] = [];

beforeAll(async () => {
  stack = await createTestStack('reminders_participant_mail', { transport: 'nats' });
  const auth = await stack.boot(authServerApp, { ADMIN_TOKEN, PUBLIC_BASE_URL });
  await stack.boot(signupsServiceApp, { PUBLIC_BASE_URL, CONFIRMATION_TOKEN_KEY: randomBytes(32).toString('base64') });
  reminders = await stack.boot(remindersServiceApp, { PUBLIC_BASE_URL });
  db = reminders.context.dataSource!;
  const created = await fetch(`${auth.url}/admin/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Maple Street School', tier: 'pro' }),
  });
  expect(created.status).toBe(201);
  const organization = (await created.json()) as { id: string };
  owner = {
    userId: newPrefixedId('usr'),
    organizationId: organization.id,
    tier: 'pro',
    livemode: false,
    scopes: ALL_SCOPES,
    credentialId: newPrefixedId('key'),
    kind: 'api_key',
  };
  await stack.bus.broadcast(['signup.updated', 'slot.updated'], async (event) => {
    changes.push(event);
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const EVENT_DATE = '2027-06-01T18:00:00.000Z';
const MOVED_DATE = '2027-06-08T18:00:00.000Z';

/** A published sandbox signup of the organization, in UTC, with these slots. */
async function newSignup(slots: CreateSlotInput[] = [], input: Partial<CreateSignupInput> = {}) {
  const signup = await stack.bus.request('signups.create', {
    principal: owner,
    input: {
      title: 'Winter potluck',
      description: 'Bring a dish.',
      location: 'Town hall',
      eventDate: EVENT_DATE,
      timeZone: 'UTC',
      ...input,
    },
  });
  const created = slots.length
    ? (await stack.bus.request('signups.slots.create', { principal: owner, signupId: signup.id, input: slots })).data
    : [];
  await stack.bus.request('signups.publish', { principal: owner, id: signup.id });
  return { signupId: signup.id, slots: created };
}

let people = 0;
async function register(signupId: string, selections: SelectionInput[] = []) {
  people += 1;
  const { confirmationToken } = await stack.bus.request('signups.participants.register', {
    signupId,
    input: { name: `Person ${people}`, email: `person${people}.${randomBytes(3).toString('hex')}@example.com`, selections },
  });
  const { participant } = await stack.bus.request('signups.registrations.get', { token: confirmationToken! });
  return { id: participant.id, token: confirmationToken! };
}

/** The kinds of the emails of each participant of the signup, oldest first. */
async function kindsByParticipant(signupId: string): Promise<Record<string, string[]>> {
  const { data } = await stack.bus.request('reminders.emails.list', { principal: owner, signupId });
  const kinds: Record<string, string[]> = {};
  for (const email of [...data].reverse()) (kinds[email.participantId!] ??= []).push(email.kind);
  return kinds;
}

/** The emails of one participant, oldest first, once there are `count`. */
const mailOf = (signupId: string, participantId: string, count: number): Promise<EmailView[]> =>
  eventually(async () => {
    const { data } = await stack.bus.request('reminders.emails.list', { principal: owner, signupId });
    const mails = data.filter((email) => email.participantId === participantId).reverse();
    expect(mails).toHaveLength(count);
    return mails;
  });

/** The events of an invitation as ical.js reads them. */
function eventsOf(email: EmailView) {
  const calendar = new ICAL.Component(ICAL.parse(email.calendar!.ics));
  expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return { uid: event.uid, sequence: event.sequence, start: event.startDate.toJSDate().toISOString(), location: event.location };
  });
}

/**
 * Waits into the next whole second: SEQUENCE counts whole seconds of the latest updatedAt, so an
 * edit made then is a later version than anything made before (two changes within one second
 * share a number, a documented limit).
 */
const nextSecond = () => delay(1000 - (Date.now() % 1000) + 20);

describe('change emails for an edited signup or slot', () => {
  it('mails each participant in the signup one change with an updated invitation when its date moves; the cancelled get nothing', async () => {
    const { signupId } = await newSignup();
    const ada = await register(signupId);
    const grace = await register(signupId);
    const gone = await register(signupId);
    await stack.bus.request('signups.registrations.cancel', { token: gone.token });
    const [confirmation] = await mailOf(signupId, ada.id, 1);
    await mailOf(signupId, grace.id, 1);
    const goneKinds = await eventually(async () => {
      const kinds = (await kindsByParticipant(signupId))[gone.id];
      expect(kinds?.at(-1)).toBe('cancellation');
      return kinds;
    });
    await nextSecond();

    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { eventDate: MOVED_DATE, location: 'School gym' } });
    const [, change] = await mailOf(signupId, ada.id, 2);
    // Everyone was considered in the one transaction that recorded Ada's change.
    expect(await kindsByParticipant(signupId)).toEqual({
      [ada.id]: ['confirmation', 'change'],
      [grace.id]: ['confirmation', 'change'],
      [gone.id]: goneKinds,
    });
    expect(change!.text).toContain('School gym');
    const [before] = eventsOf(confirmation!);
    const [after] = eventsOf(change!);
    expect(after).toEqual({ uid: before!.uid, sequence: expect.any(Number), start: MOVED_DATE, location: 'School gym' });
    expect(after!.sequence).toBeGreaterThan(before!.sequence);
  });

  it('mails a slot’s new times only to the participants holding that slot', async () => {
    const { signupId, slots } = await newSignup([
      { title: 'Setup', capacity: 5, startTime: '2027-06-01T16:00:00.000Z', endTime: '2027-06-01T18:00:00.000Z' },
      { title: 'Cleanup', capacity: 5, startTime: '2027-06-01T21:00:00.000Z', endTime: '2027-06-01T22:00:00.000Z' },
    ]);
    const [setup, cleanup] = slots;
    const ada = await register(signupId, [{ type: 'slot', id: setup!.id }]);
    const grace = await register(signupId, [{ type: 'slot', id: cleanup!.id }]);
    const [confirmation] = await mailOf(signupId, ada.id, 1);
    await mailOf(signupId, grace.id, 1);
    await nextSecond();

    const startTime = '2027-06-01T15:00:00.000Z';
    await stack.bus.request('signups.slots.update', { principal: owner, signupId, id: setup!.id, input: { startTime } });
    const [, change] = await mailOf(signupId, ada.id, 2);
    // Both were considered in the one transaction that recorded Ada's change.
    expect(await kindsByParticipant(signupId)).toEqual({ [ada.id]: ['confirmation', 'change'], [grace.id]: ['confirmation'] });
    const [before] = eventsOf(confirmation!);
    const [after] = eventsOf(change!);
    expect(after).toMatchObject({ uid: before!.uid, start: startTime });
    expect(after!.sequence).toBeGreaterThan(before!.sequence);
  });

  it('mails nothing for a new description (no email shows it), and a change for a new title (the subject and the calendar show it)', async () => {
    const { signupId } = await newSignup();
    const ada = await register(signupId);
    await mailOf(signupId, ada.id, 1);
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { description: 'Bring two dishes.' } });
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { title: 'Spring potluck' } });
    // The consumer applies the edits in order: once the title's change is there, the description's was applied before.
    const [, change] = await mailOf(signupId, ada.id, 2);
    expect(change!.subject).toContain('Spring potluck');
    expect(await kindsByParticipant(signupId)).toEqual({ [ada.id]: ['confirmation', 'change'] });
  });

  it('records nothing more when an edit is handled again, even for participants whose state says they were told something else', async () => {
    const { signupId } = await newSignup();
    const ada = await register(signupId);
    const grace = await register(signupId);
    await mailOf(signupId, ada.id, 1);
    await mailOf(signupId, grace.id, 1);
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { eventDate: MOVED_DATE } });
    await mailOf(signupId, ada.id, 2);
    await mailOf(signupId, grace.id, 2);
    const event = changes.find((e) => e.type === 'signup.updated' && e.subject === signupId)!;

    await db.query(`UPDATE "reminders"."mail_state" SET fingerprint = 'stale' WHERE signup_id = $1`, [signupId]);
    const mail = reminders.app.get(ParticipantMail);
    const prepared = await mail['prepare'](event as CloudEvent<'signup.updated'>);
    await db.transaction((manager) => mail['apply'](manager, event as CloudEvent<'signup.updated'>, prepared));
    expect(await kindsByParticipant(signupId)).toEqual({ [ada.id]: ['confirmation', 'change'], [grace.id]: ['confirmation', 'change'] });
  });

  it('never sends a change read before what the participant was last told (another replica handled a later edit first)', async () => {
    const { signupId } = await newSignup();
    const ada = await register(signupId);
    await mailOf(signupId, ada.id, 1);
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { eventDate: MOVED_DATE } });
    await mailOf(signupId, ada.id, 2);
    const first = changes.find((e) => e.type === 'signup.updated' && e.subject === signupId)! as CloudEvent<'signup.updated'>;
    const mail = reminders.app.get(ParticipantMail);
    // Read as the first edit left it, then overtaken by a second edit, told to Ada first.
    const stale = await mail['prepare'](first);
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { eventDate: '2027-03-01T18:00:00.000Z' } });
    await mailOf(signupId, ada.id, 3);
    const late = { ...first, id: randomUUID() };
    await db.transaction((manager) => mail['apply'](manager, late, stale));
    expect(await kindsByParticipant(signupId)).toEqual({ [ada.id]: ['confirmation', 'change', 'change'] });
  });

  it('does not remember a change the day’s ceiling held back as told', async () => {
    const live = { ...owner, livemode: true };
    const signup = await stack.bus.request('signups.create', { principal: live, input: { title: 'Live potluck', eventDate: EVENT_DATE } });
    await stack.bus.request('signups.publish', { principal: live, id: signup.id });
    const { confirmationToken } = await stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { name: 'Live Person', email: `live.${randomBytes(3).toString('hex')}@example.com`, selections: [] },
    });
    const { participant } = await stack.bus.request('signups.registrations.get', { token: confirmationToken! });
    const statuses = async () =>
      (
        (await db.query(`SELECT kind, status FROM "reminders"."emails" WHERE participant_id = $1 ORDER BY created_at`, [
          participant.id,
        ])) as {
          kind: string;
          status: string;
        }[]
      ).map((row) => `${row.kind}:${row.status}`);
    const told = async () =>
      (
        (await db.query(`SELECT fingerprint FROM "reminders"."mail_state" WHERE participant_id = $1`, [participant.id])) as {
          fingerprint: string;
        }[]
      )[0]!.fingerprint;
    await eventually(async () => expect(await statuses()).toEqual(['confirmation:stored']));
    const afterConfirmation = await told();
    // The organization spent its emails of the day: the change is kept, suppressed, and what the participant was told stays.
    await db.query(
      `INSERT INTO "reminders"."daily_email" (organization_id, day, sent) VALUES ($1, $2, 5000)
       ON CONFLICT (organization_id, day) DO UPDATE SET sent = 5000`,
      [owner.organizationId, utcDay().day],
    );
    await stack.bus.request('signups.update', { principal: live, id: signup.id, input: { eventDate: MOVED_DATE } });
    await eventually(async () => expect(await statuses()).toEqual(['confirmation:stored', 'change:suppressed']));
    expect(await told()).toBe(afterConfirmation);
    await db.query(`UPDATE "reminders"."daily_email" SET sent = 0 WHERE organization_id = $1`, [owner.organizationId]);
  });

  it('mails nobody who was never mailed: their first message, still to come, tells the signup as it is then', async () => {
    const { signupId } = await newSignup();
    const ada = await register(signupId);
    const grace = await register(signupId);
    await mailOf(signupId, ada.id, 1);
    await mailOf(signupId, grace.id, 1);
    // As if Grace's confirmation were still to be made (the consumer's state knows of no message to her).
    await db.query(`UPDATE "reminders"."mail_state" SET fingerprint = NULL WHERE participant_id = $1`, [grace.id]);
    await stack.bus.request('signups.update', { principal: owner, id: signupId, input: { eventDate: MOVED_DATE } });
    await mailOf(signupId, ada.id, 2);
    expect(await kindsByParticipant(signupId)).toEqual({ [ada.id]: ['confirmation', 'change'], [grace.id]: ['confirmation'] });
  });
});
