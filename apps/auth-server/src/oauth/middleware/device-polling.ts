import type { KoaContext } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { DevicePollsRepository } from '../device-polls.repository.js';
import { DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } from '../lifetimes.js';
import { OAUTH_ROUTES } from '../oauth-routes.js';

/**
 * slow_down (RFC 8628 section 3.5): a device code polled again within the interval while
 * authorization is pending. The last poll of each device code is kept (see DevicePollsRepository).
 */
export function slowDownFastPolling(dataSource: DataSource) {
  const polls = new DevicePollsRepository();
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    const deviceCode = ctx.oidc?.params?.device_code;
    if (ctx.path !== OAUTH_ROUTES.token || body?.error !== 'authorization_pending' || typeof deviceCode !== 'string') return;
    const last = await polls.lastPoll(dataSource.manager, deviceCode);
    const now = Date.now();
    await polls.recordPoll(dataSource.manager, deviceCode, new Date(now), DEVICE_CODE_TTL_SECONDS);
    if (last && now - last.getTime() < DEVICE_POLL_INTERVAL_SECONDS * 1000) {
      ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly and should back off at a reasonable rate' };
    }
  };
}
