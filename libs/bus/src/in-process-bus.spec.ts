import { busConformance } from './bus.conformance.js';
import { replyDataText } from './envelope.js';
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

describe('replyDataText', () => {
  it('cuts the data out of an ok reply without parsing it', () => {
    const data = { text: '} {"ok":true,"data":', list: [1, { a: null }] };
    expect(replyDataText(JSON.stringify({ ok: true, data }))).toBe(JSON.stringify(data));
  });

  it('answers null for an ok reply without data, throws a problem reply, and undefined for what is no reply', () => {
    expect(replyDataText(JSON.stringify({ ok: true }))).toBe('null');
    expect(() => replyDataText(JSON.stringify({ ok: false, problem: { code: 'conflict', detail: 'Closed.' } }))).toThrow(
      expect.objectContaining({ code: 'conflict', status: 409 }),
    );
    expect(replyDataText('not json')).toBeUndefined();
    expect(replyDataText('42')).toBeUndefined();
  });
});
