import { InProcessBus } from '#libs/bus';
import { ConfigError } from '#libs/config';
import { createLogger } from '#libs/observability';
import { bootApp, type Infrastructure } from '#libs/runtime';
import { authServerApp } from './index.js';

describe('auth-server configuration', () => {
  it('refuses to boot without ADMIN_TOKEN, naming the variable, before it touches the database', async () => {
    const bus = new InProcessBus(createLogger('auth-server', 'silent'));
    const infrastructure: Infrastructure = {
      env: { ADMIN_TOKEN: '  ' },
      logLevel: 'silent',
      bus,
      dataSource: () => {
        throw new Error('no database in this test');
      },
      close: () => bus.close(),
    };
    const boot = bootApp(authServerApp, infrastructure);
    await expect(boot).rejects.toThrow(ConfigError);
    await expect(boot).rejects.toThrow(/ADMIN_TOKEN is required/);
    await bus.close();
  });
});
