import type { Logger } from '#libs/observability';
import { LogSmsProvider, maskPhone } from './log-sms-provider.js';

/** A Logger that keeps the arguments of every info call. */
function recordingLogger(): { logger: Logger; calls: unknown[][] } {
  const calls: unknown[][] = [];
  return { logger: { info: (...args: unknown[]) => calls.push(args) } as unknown as Logger, calls };
}

describe('maskPhone', () => {
  it('keeps the plus, the first 2 and the last 2 digits', () => {
    expect(maskPhone('+15551234567')).toBe('+15•••••••67');
    expect(maskPhone('+447911123456')).toBe('+44••••••••56');
  });

  it('masks short numbers whole', () => {
    expect(maskPhone('+123456')).toBe('+••••••');
  });

  it('masks a number given without the plus', () => {
    expect(maskPhone('15551234567')).toBe('15•••••••67');
  });
});

describe('LogSmsProvider', () => {
  it('answers a log_ id and sends nothing but a log line', async () => {
    const { logger, calls } = recordingLogger();
    const { id } = await new LogSmsProvider(logger).send({ to: '+15551234567', body: 'Potluck tomorrow at 6' });

    expect(id).toMatch(/^log_[0-9a-f-]{36}$/);
    expect(calls).toHaveLength(1);
  });

  it('logs the body and the masked recipient, never the full number', async () => {
    const { logger, calls } = recordingLogger();
    await new LogSmsProvider(logger).send({ to: '+15551234567', body: 'Potluck tomorrow at 6' });

    expect(calls[0][0]).toMatchObject({ to: '+15•••••••67', body: 'Potluck tomorrow at 6' });
    const logged = JSON.stringify(calls);
    expect(logged).not.toContain('15551234567');
    expect(logged).not.toContain('5551234567');
  });
});
