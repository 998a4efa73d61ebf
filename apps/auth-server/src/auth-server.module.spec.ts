import { InProcessBus } from '#libs/bus';
import { ConfigError } from '#libs/config';
import { Metrics, createLogger } from '#libs/observability';
import type { AppContext } from '#libs/runtime';
import { authServerApp } from './index.js';

describe('auth-server configuration', () => {
  it('refuses to build without ADMIN_TOKEN, naming the variable', () => {
    const logger = createLogger('auth-server', 'silent');
    const context: AppContext = {
      name: 'auth-server',
      logger,
      metrics: new Metrics('auth-server', { defaultMetrics: false }),
      bus: new InProcessBus(logger),
      env: { ADMIN_TOKEN: '  ' },
    };
    expect(() => authServerApp.module(context)).toThrow(ConfigError);
    expect(() => authServerApp.module(context)).toThrow(/ADMIN_TOKEN is required/);
  });
});
