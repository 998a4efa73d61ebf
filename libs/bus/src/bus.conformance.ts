import { type HandlersOf, JsonAnswer, type ReminderPassView } from '#libs/contracts';
import { currentRequestId, runWithRequestId } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import type { Bus } from './bus.js';
import type { BusLogger } from './envelope.js';
import { authHandlers, eventually, otherEvent, principal, recordingLogger, Seen, testEvent, uniqueName } from './test-support.js';

type AuthHandlers = HandlersOf<'auth'>;

const PASS: ReminderPassView = { eligible: 1, sent: 1, failed: 0, notEligible: [], channels: {} };

/** The reminders owner's handlers: passes.run as given, the rest answering not_found. */
function remindersHandlers(run: HandlersOf<'reminders'>['reminders.passes.run']): HandlersOf<'reminders'> {
  const notFound = async (): Promise<never> => {
    throw new ProblemError('not_found');
  };
  return {
    'reminders.passes.run': run,
    'reminders.outbox.list': notFound,
    'reminders.status.get': notFound,
    'reminders.inbound': notFound,
    'reminders.emails.list': notFound,
    'reminders.mailbox.list': notFound,
    'reminders.mailbox.get': notFound,
    'reminders.unsubscribe': notFound,
    'reminders.emails.account': notFound,
  };
}

const TYPES = ['auth.apikey.revoked'] as const;

/** The semantics every Bus keeps; run against each transport with a factory for a fresh bus. */
export function busConformance(name: string, createBus: (logger: BusLogger) => Promise<Bus>): void {
  describe(`${name} conformance`, () => {
    let bus: Bus;
    let logger: ReturnType<typeof recordingLogger>;

    beforeEach(async () => {
      logger = recordingLogger();
      bus = await createBus(logger);
    });

    afterEach(() => bus.close());

    describe('request/reply', () => {
      it('returns the reply of the handler serving the subject', async () => {
        await bus.serve(
          'auth',
          authHandlers(async ({ keyHash: key }) => principal(`user-of-${key}`)),
        );
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'k1' })).resolves.toEqual(principal('user-of-k1'));
      });

      it('answers the JSON text of the reply as JSON.stringify made it, and still throws a problem reply', async () => {
        // A value whose text holds what the envelope's own text is made of.
        const tricky = { ...principal('u'), userId: '{"ok":true,"data":} "quoted" \\ ü' };
        await bus.serve(
          'auth',
          authHandlers(async ({ keyHash: key }) => {
            if (key === 'gone') throw new ProblemError('not_found', 'No such key.');
            return tricky;
          }),
        );
        await expect(bus.requestJson('auth.apikeys.verify', { keyHash: 'k' })).resolves.toBe(JSON.stringify(tricky));
        await expect(bus.requestJson('auth.apikeys.verify', { keyHash: 'gone' })).rejects.toMatchObject({ code: 'not_found', status: 404 });
      });

      it("sends a handler's JsonAnswer as its text: passed on verbatim, parsed for request", async () => {
        // Spaces JSON.stringify would not write: the text is not made again on the way.
        const text = `{ "userId": "u", "organizationId": "org_test", "tier": "free", "livemode": false, "scopes": [], "credentialId": "k", "kind": "api_key" }`;
        await bus.serve(
          'auth',
          authHandlers(async () => new JsonAnswer(text)),
        );
        await expect(bus.requestJson('auth.apikeys.verify', { keyHash: 'k' })).resolves.toBe(text);
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' })).resolves.toEqual(JSON.parse(text));
      });

      it("runs the handler under the caller's request id", async () => {
        await bus.serve(
          'auth',
          authHandlers(async () => principal(currentRequestId() ?? 'none')),
        );
        const reply = await runWithRequestId('req-conformance-1', () => bus.request('auth.apikeys.verify', { keyHash: 'k' }));
        expect(reply.userId).toBe('req-conformance-1');
      });

      it('throws a problem reply as ProblemError with code, status, errors and headers intact', async () => {
        await bus.serve(
          'auth',
          authHandlers(async ({ keyHash: key }) => {
            if (key === 'invalid') throw ProblemError.validation([{ path: 'key', message: 'Too short' }]);
            throw new ProblemError('upstream_unavailable', 'timed out', { status: 504, headers: { 'retry-after': '3' } });
          }),
        );
        const invalid = await bus.request('auth.apikeys.verify', { keyHash: 'invalid' }).catch((err: unknown) => err);
        expect(invalid).toBeInstanceOf(ProblemError);
        expect(invalid).toMatchObject({ code: 'validation_failed', status: 422, errors: [{ path: 'key', message: 'Too short' }] });
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'slow' })).rejects.toMatchObject({
          code: 'upstream_unavailable',
          status: 504,
          detail: 'timed out',
          headers: { 'retry-after': '3' },
        });
      });

      it('answers an unexpected handler failure as internal_error without its message', async () => {
        await bus.serve(
          'auth',
          authHandlers(async () => {
            throw new Error('relation "secret_table" does not exist');
          }),
        );
        const err = (await bus.request('auth.apikeys.verify', { keyHash: 'k' }).catch((e: unknown) => e)) as ProblemError;
        expect(err).toMatchObject({ code: 'internal_error', status: 500 });
        expect(`${err.message} ${JSON.stringify(err.toWire())}`).not.toContain('secret_table');
        expect(logger.entries).toContainEqual(expect.objectContaining({ level: 'error', msg: 'bus handler failed' }));
      });

      it('fails with internal_error when no reply comes before the deadline', async () => {
        let release = (): void => undefined;
        const gate = new Promise<void>((resolve) => (release = resolve));
        await bus.serve(
          'auth',
          authHandlers(async () => {
            await gate;
            return principal('late');
          }),
        );
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' }, { timeoutMs: 100 })).rejects.toMatchObject({
          code: 'internal_error',
        });
        release();
      });

      it('fails with internal_error when nobody serves the subject', async () => {
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' })).rejects.toMatchObject({ code: 'internal_error' });
      });

      it('stops answering once its subscription is stopped', async () => {
        const served = await bus.serve(
          'auth',
          authHandlers(async () => principal('u')),
        );
        await served.stop();
        await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' })).rejects.toMatchObject({ code: 'internal_error' });
      });

      it("waits for a slow subject as long as its catalog deadline says, beyond the bus's default", async () => {
        await bus.serve(
          'reminders',
          remindersHandlers(async () => {
            await new Promise((resolve) => setTimeout(resolve, 2100));
            return PASS;
          }),
        );
        await expect(bus.request('reminders.passes.run', { principal: principal('patient'), signupId: 's' })).resolves.toEqual(PASS);
      });

      it("refuses handlers missing one of the owner's subjects", async () => {
        const handlers: Partial<AuthHandlers> = authHandlers(async () => principal('u'));
        delete handlers['auth.me'];
        await expect(bus.serve('auth', handlers as AuthHandlers)).rejects.toThrow(/missing \[auth\.me\]/);
      });

      it('refuses a handler for a subject the owner does not have', async () => {
        const handlers = { ...authHandlers(async () => principal('u')), 'auth.extra': async () => ({}) };
        await expect(bus.serve('auth', handlers as AuthHandlers)).rejects.toThrow(/unknown \[auth\.extra\]/);
      });
    });

    describe('events', () => {
      it('delivers each event once per durable group, whichever member takes it', async () => {
        const [groupA, groupB] = [uniqueName('group_a'), uniqueName('group_b')];
        const [a1, a2, b] = [new Seen(), new Seen(), new Seen()];
        await bus.consume({ durable: groupA, types: TYPES }, async (e) => a1.add(e.id));
        await bus.consume({ durable: groupA, types: TYPES }, async (e) => a2.add(e.id));
        await bus.consume({ durable: groupB, types: TYPES }, async (e) => b.add(e.id));
        const events = Array.from({ length: 20 }, testEvent);
        for (const event of events) await bus.publish(event);
        await eventually(() => {
          for (const { id } of events) {
            expect(a1.count(id) + a2.count(id)).toBe(1);
            expect(b.count(id)).toBe(1);
          }
        });
      });

      it('delivers only the event types the group asked for', async () => {
        const seen = new Seen();
        await bus.consume({ durable: uniqueName('typed'), types: ['auth.apikey.revoked', 'signup.created'] }, async (e) => seen.add(e.id));
        const [other, wanted] = [otherEvent(), testEvent()];
        await bus.publish(other);
        await bus.publish(wanted);
        await eventually(() => expect(seen.count(wanted.id)).toBe(1));
        expect(seen.count(other.id)).toBe(0);
      });

      it('redelivers an event whose handler failed', async () => {
        const event = testEvent();
        const attempts = new Seen();
        const handled = new Seen();
        await bus.consume({ durable: uniqueName('flaky'), types: TYPES }, async (e) => {
          attempts.add(e.id);
          if (e.id === event.id && attempts.count(e.id) === 1) throw new Error('flaky');
          handled.add(e.id);
        });
        await bus.publish(event);
        await eventually(() => expect(handled.count(event.id)).toBe(1));
        expect(attempts.count(event.id)).toBe(2);
      });

      it('parks an event after maxDeliver failed deliveries', async () => {
        const event = testEvent();
        const attempts = new Seen();
        await bus.consume({ durable: uniqueName('parking'), types: TYPES, maxDeliver: 2 }, async (e) => {
          attempts.add(e.id);
          if (e.id === event.id) throw new Error('always');
        });
        await bus.publish(event);
        await eventually(() =>
          expect(logger.entries).toContainEqual(
            expect.objectContaining({
              level: 'error',
              msg: 'event handler failed; event parked',
              obj: expect.objectContaining({ eventId: event.id }),
            }),
          ),
        );
        expect(attempts.count(event.id)).toBe(2);
      });

      it('keeps events for a durable group while it has no member', async () => {
        const durable = uniqueName('returning');
        const first = await bus.consume({ durable, types: TYPES }, async () => undefined);
        await first.stop();
        const event = testEvent();
        await bus.publish(event);
        const seen = new Seen();
        await bus.consume({ durable, types: TYPES }, async (e) => seen.add(e.id));
        await eventually(() => expect(seen.count(event.id)).toBe(1));
      });

      it('broadcasts every event to every subscriber', async () => {
        const [one, two] = [new Seen(), new Seen()];
        await bus.broadcast(TYPES, async (e) => one.add(e.id));
        await bus.broadcast(TYPES, async (e) => two.add(e.id));
        const event = testEvent();
        await bus.publish(event);
        await eventually(() => expect([one.count(event.id), two.count(event.id)]).toEqual([1, 1]));
      });

      it('logs a failing broadcast handler and keeps delivering', async () => {
        const seen = new Seen();
        await bus.broadcast(TYPES, async (e) => {
          seen.add(e.id);
          if (seen.ids.length === 1) throw new Error('evict failed');
        });
        const [first, second] = [testEvent(), testEvent()];
        await bus.publish(first);
        await eventually(() => expect(logger.entries).toContainEqual(expect.objectContaining({ level: 'error' })));
        await bus.publish(second);
        await eventually(() => expect(seen.count(second.id)).toBe(1));
      });
    });
  });
}
