import { InProcessBus } from '#libs/bus';
import { ConfigError } from '#libs/config';
import { createLogger } from '#libs/observability';
import { bootApp, type Infrastructure } from '#libs/runtime';
import { signupsServiceApp } from './index.js';

/** Boots the app on an environment, with no database: configuration is read first. */
async function bootWith(env: Record<string, string>): Promise<unknown> {
  const bus = new InProcessBus(createLogger('signups-service', 'silent'));
  const infrastructure: Infrastructure = {
    env,
    logLevel: 'silent',
    bus,
    dataSource: () => {
      throw new Error('no database in this test');
    },
    close: () => bus.close(),
  };
  try {
    return await bootApp(signupsServiceApp, infrastructure);
  } catch (err) {
    return err;
  } finally {
    await bus.close();
  }
}

describe('signups-service configuration', () => {
  it('refuses to boot without CONFIRMATION_TOKEN_KEY, naming the variable, before it touches the database', async () => {
    const error = await bootWith({ CONFIRMATION_TOKEN_KEY: ' ' });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['CONFIRMATION_TOKEN_KEY is required']);
  });

  it('refuses a key that is not 32 bytes of base64, without showing it', async () => {
    const key = Buffer.alloc(16, 9).toString('hex');
    const error = await bootWith({ CONFIRMATION_TOKEN_KEY: key });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'CONFIRMATION_TOKEN_KEY must be 32 bytes in standard base64 (openssl rand -base64 32)',
    ]);
    expect((error as ConfigError).message).not.toContain(key);
  });
});
