import { busConformance } from './bus.conformance.js';
import { InProcessBus } from './in-process-bus.js';
import { eventually, recordingLogger, testEvent, uniqueName } from './test-support.js';

busConformance('InProcessBus', async (logger) => new InProcessBus(logger, 2000));

describe('InProcessBus backlog', () => {
  it("reports a durable group's events kept while it had no member, then those handed out and not yet handled", async () => {
    const bus = new InProcessBus(recordingLogger(), 2000);
    const durable = uniqueName('backlog');
    const idle = await bus.consume({ durable, types: ['auth.apikey.revoked'] }, async () => undefined);
    await idle.stop();
    for (let i = 0; i < 3; i++) await bus.publish(testEvent());
    expect(await bus.backlog(durable)).toEqual({ pending: 3, unacknowledged: 0 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await bus.consume({ durable, types: ['auth.apikey.revoked'] }, () => held);
    await eventually(() => expect(bus.backlog(durable)).resolves.toEqual({ pending: 0, unacknowledged: 3 }));
    release();
    await eventually(() => expect(bus.backlog(durable)).resolves.toEqual({ pending: 0, unacknowledged: 0 }));
    await bus.close();
  });
});
