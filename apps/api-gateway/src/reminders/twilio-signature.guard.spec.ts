import type { ExecutionContext } from '@nestjs/common';
import { DEFAULT_ANON_LIMITS, DEFAULT_TIER_LIMITS, loadConfig } from '#libs/config';
import { Counters, EdgeRateLimiter, twilioSignature } from '#libs/edge';
import { createLogger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { gatewaySpec } from '../gateway.config.js';
import { TwilioSignatureGuard } from './twilio-signature.guard.js';

const TOKEN = 'twilio-token-for-the-guard';
const URL = 'https://api.example.test/hooks/twilio/inbound';
const PARAMS = { From: '+14155550123', Body: 'STOP' };

/** The HTTP context of one inbound request, as Nest hands it to a guard. */
function inbound(signature: string | undefined, ip: string): { context: ExecutionContext; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const request = { body: PARAMS, headers: signature === undefined ? {} : { 'x-twilio-signature': signature }, ip };
  const reply = { headers: (values: Record<string, string>) => Object.assign(headers, values) };
  const context = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ExecutionContext;
  return { context, headers };
}

describe('TwilioSignatureGuard', () => {
  let counters: Counters;
  const guard = async (token: string | undefined, writesPerMinute = 6) => {
    const config = loadConfig(gatewaySpec, {
      PUBLIC_BASE_URL: 'https://api.example.test/api/v1',
      ...(token && { TWILIO_AUTH_TOKEN: token }),
    });
    const limiter = new EdgeRateLimiter(counters, {
      tierLimits: DEFAULT_TIER_LIMITS,
      anonLimits: { ...DEFAULT_ANON_LIMITS, writesPerMinute },
    });
    return new TwilioSignatureGuard(config, createLogger('api-gateway', 'silent'), limiter);
  };

  beforeAll(async () => {
    counters = await Counters.create(undefined, `guard-${Date.now()}`);
  });

  afterAll(() => counters.close());

  it("lets through a request signed with the token over the gateway's inbound URL", async () => {
    const { context } = inbound(twilioSignature(TOKEN, URL, PARAMS), '192.0.2.1');
    expect(await (await guard(TOKEN)).canActivate(context)).toBe(true);
  });

  it('refuses a forged or missing signature with 403 forbidden', async () => {
    const g = await guard(TOKEN);
    for (const signature of [twilioSignature('another-token', URL, PARAMS), undefined]) {
      await expect(g.canActivate(inbound(signature, '192.0.2.2').context)).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    }
  });

  it('refuses every request when TWILIO_AUTH_TOKEN is not set, even one signed with an empty token', async () => {
    const { context } = inbound(twilioSignature('', URL, PARAMS), '192.0.2.3');
    await expect((await guard(undefined)).canActivate(context)).rejects.toBeInstanceOf(ProblemError);
  });

  it('counts refused signatures against the address: guessing runs into 429 rate_limited', async () => {
    const g = await guard(TOKEN, 2);
    const refusals = [];
    for (let i = 0; i < 3; i += 1)
      refusals.push(await g.canActivate(inbound('guess', '192.0.2.4').context).catch((err: ProblemError) => err.code));
    expect(refusals).toEqual(['forbidden', 'forbidden', 'rate_limited']);
  });
});
