import { InProcessBus } from '#libs/bus';
import { type HandlersOf, newId, subjectsOf } from '#libs/contracts';
import { createLogger } from '#libs/observability';
import { messageContext } from '../testing/message-context.js';
import { MessageContexts } from './message-contexts.js';

/**
 * The signups-service's side of the bus, as a double that answers the message contexts of the
 * participants it knows and records each request (the real one is tested in the signups-service's
 * message-contexts.integration-spec.ts, and across processes in e2e/src/nats-permissions.e2e-spec.ts).
 */
function signupsDouble(known: Set<string>) {
  const asked: string[][] = [];
  const handlers = Object.fromEntries(
    subjectsOf('signups').map((subject) => [subject, () => Promise.reject(new Error(`${subject} was not to be asked`))]),
  ) as unknown as HandlersOf<'signups'>;
  handlers['signups.participants.messages'] = async ({ participantIds }) => {
    asked.push(participantIds);
    return { data: participantIds.filter((id) => known.has(id)).map((id) => messageContext({ participant: { id } })) };
  };
  return { asked, handlers };
}

describe('message contexts from the signups-service', () => {
  let bus: InProcessBus;

  afterEach(async () => {
    await bus.close();
  });

  async function contextsWith(known: Set<string>) {
    bus = new InProcessBus(createLogger('test', 'silent'));
    const double = signupsDouble(known);
    await bus.serve('signups', double.handlers);
    return { contexts: new MessageContexts(bus), asked: double.asked };
  }

  it('asks at most 100 participants a request, each once, and answers the contexts found by participant id', async () => {
    const ids = Array.from({ length: 250 }, newId);
    const known = new Set(ids.filter((_id, i) => i % 3 !== 0));
    const { contexts, asked } = await contextsWith(known);
    const found = await contexts.of([...ids, ...ids.slice(0, 10)]);
    expect(asked.map((chunk) => chunk.length)).toEqual([100, 100, 50]);
    expect(asked.flat()).toEqual(ids);
    expect([...found.keys()].sort()).toEqual([...known].sort());
    for (const [id, context] of found) expect(context.participant.id).toBe(id);
  });

  it('asks nothing for no participant', async () => {
    const { contexts, asked } = await contextsWith(new Set());
    expect(await contexts.of([])).toEqual(new Map());
    expect(asked).toEqual([]);
  });
});
