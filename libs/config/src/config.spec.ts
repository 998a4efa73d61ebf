import { ConfigError, env, loadConfig } from './env.js';
import { DEFAULT_TIER_LIMITS, anonLimitsField, tierLimitsField } from './tiers.js';
import { listenSpec } from './common.js';

describe('loadConfig', () => {
  it('reads typed values and applies defaults', () => {
    const config = loadConfig({ port: env.int('PORT', 3000), debug: env.bool('DEBUG', false), name: env.string('NAME', 'x') }, { PORT: '8080', DEBUG: 'true' });
    expect(config).toEqual({ port: 8080, debug: true, name: 'x' });
  });

  it('fails fast naming every bad variable', () => {
    const spec = { port: env.int('PORT', 3000, { min: 1, max: 65535 }), url: env.url('AUTH_URL'), mode: env.oneOf('MODE', ['a', 'b'], 'a') };
    expect(() => loadConfig(spec, { PORT: 'abc', MODE: 'c' })).toThrow(ConfigError);
    try {
      loadConfig(spec, { PORT: 'abc', MODE: 'c' });
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        'PORT must be an integer between 1 and 65535 (got "abc")',
        'AUTH_URL is required',
        'MODE must be one of a, b (got "c")',
      ]);
    }
  });

  it('reads the per-app port variable', () => {
    expect(loadConfig(listenSpec('api-gateway'), { API_GATEWAY_PORT: '4000' }).port).toBe(4000);
    expect(loadConfig(listenSpec('signups-service'), {}).port).toBe(3010);
  });
});

describe('tier limits', () => {
  it('defaults to the documented table', () => {
    const { limits } = loadConfig({ limits: tierLimitsField() }, {});
    expect(limits).toEqual(DEFAULT_TIER_LIMITS);
    expect(limits.free.smsPerDay).toBe(0);
    expect(limits.org.requestsPerMinute).toBe(3000);
  });

  it('merges partial overrides from TIER_LIMITS', () => {
    const { limits } = loadConfig({ limits: tierLimitsField() }, { TIER_LIMITS: '{"free":{"webhookEndpoints":2}}' });
    expect(limits.free).toEqual({ ...DEFAULT_TIER_LIMITS.free, webhookEndpoints: 2 });
  });

  it('rejects unknown tiers and keys by name', () => {
    expect(() => loadConfig({ limits: tierLimitsField() }, { TIER_LIMITS: '{"gold":{}}' })).toThrow(/TIER_LIMITS has unknown key "gold"/);
    expect(() => loadConfig({ limits: tierLimitsField() }, { TIER_LIMITS: '{"pro":{"x":1}}' })).toThrow(/TIER_LIMITS .pro has unknown key "x"/);
    expect(() => loadConfig({ anon: anonLimitsField() }, { ANON_LIMITS: '[' })).toThrow(/ANON_LIMITS must be valid JSON/);
  });
});
