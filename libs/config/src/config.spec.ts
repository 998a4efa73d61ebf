import { listenSpec, loadHttpTimeouts, natsAuthOf, natsAuthSpec, trustProxyField } from './common.js';
import { ConfigError, env, loadConfig } from './env.js';
import { anonLimitsField, DEFAULT_TIER_LIMITS, signupsPerDayField, tierLimitsField } from './tiers.js';

/** The problems of the ConfigError `load` throws; fails when it throws none. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads typed values and applies defaults', () => {
    const config = loadConfig(
      { port: env.int('PORT', 3000), debug: env.bool('DEBUG', false), name: env.string('NAME', 'x') },
      { PORT: '8080', DEBUG: 'true' },
    );
    expect(config).toEqual({ port: 8080, debug: true, name: 'x' });
  });

  it('fails fast naming every bad variable', () => {
    const spec = {
      port: env.int('PORT', 3000, { min: 1, max: 65535 }),
      url: env.url('AUTH_URL'),
      mode: env.oneOf('MODE', ['a', 'b'], 'a'),
    };
    expect(problemsOf(() => loadConfig(spec, { PORT: 'abc', MODE: 'c' }))).toEqual([
      'PORT must be an integer between 1 and 65535 (got "abc")',
      'AUTH_URL is required',
      'MODE must be one of a, b (got "c")',
    ]);
  });

  it('reads a 256-bit key in standard base64, and names the variable but never the value of a bad one', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ key: env.secretKey('SEALING_KEY') }, { SEALING_KEY: ` ${key} ` }).key).toBe(key);
    expect(problemsOf(() => loadConfig({ key: env.secretKey('SEALING_KEY') }, {}))).toEqual(['SEALING_KEY is required']);
    const bad = [
      Buffer.alloc(16, 7).toString('base64'),
      Buffer.alloc(33, 7).toString('base64'),
      Buffer.alloc(32, 7).toString('hex'),
      `${key}!`,
    ];
    for (const value of bad) {
      expect(problemsOf(() => loadConfig({ key: env.secretKey('SEALING_KEY') }, { SEALING_KEY: value }))).toEqual([
        'SEALING_KEY must be 32 bytes in standard base64 (openssl rand -base64 32)',
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
    expect(() => loadConfig({ limits: tierLimitsField() }, { TIER_LIMITS: '{"pro":{"x":1}}' })).toThrow(
      /TIER_LIMITS .pro has unknown key "x"/,
    );
    expect(() => loadConfig({ anon: anonLimitsField() }, { ANON_LIMITS: '[' })).toThrow(/ANON_LIMITS must be valid JSON/);
  });
});

describe('HTTP timeouts', () => {
  it('defaults to 10 s for headers, 30 s for the whole request and 65 s of keep-alive', () => {
    expect(loadHttpTimeouts({})).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 });
  });

  it('reads each from its variable', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000' };
    expect(loadHttpTimeouts(env)).toEqual({ headersTimeoutMs: 500, requestTimeoutMs: 1500, keepAliveTimeoutMs: 75_000 });
  });

  it('refuses 0, which would turn a timeout off, and values that are not whole milliseconds in range, naming each', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '0', HTTP_REQUEST_TIMEOUT_MS: '30s', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65' };
    expect(problemsOf(() => loadHttpTimeouts(env))).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must be an integer between 100 and 60000 (got "0")',
      'HTTP_REQUEST_TIMEOUT_MS must be an integer between 100 and 300000 (got "30s")',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS must be an integer between 1000 and 900000 (got "65")',
    ]);
  });

  it('refuses a headers timeout longer than the request timeout, which counts the headers too', () => {
    expect(() => loadHttpTimeouts({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '15000' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_MS (20000) must not exceed HTTP_REQUEST_TIMEOUT_MS (15000), which counts the headers too',
    );
    expect(loadHttpTimeouts({ HTTP_HEADERS_TIMEOUT_MS: '15000', HTTP_REQUEST_TIMEOUT_MS: '15000' }).headersTimeoutMs).toBe(15_000);
  });
});

describe('TRUST_PROXY', () => {
  const read = (value?: string) => loadConfig({ trustProxy: trustProxyField() }, { TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default and every hop when true', () => {
    expect(read()).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('true')).toBe(true);
  });

  it('reads 1 and 0 as true and false, and refuses hop counts (Fastify does not honour them)', () => {
    expect(read('1')).toBe(true);
    expect(read('0')).toBe(false);
    expect(() => read('2')).toThrow(/TRUST_PROXY must be true or false/);
  });

  it('reads a list of proxy addresses and CIDR ranges', () => {
    expect(read('10.0.0.0/8, 192.168.1.7,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
  });

  it('refuses anything else, naming the bad entry', () => {
    expect(() => read('10.0.0.0/33')).toThrow(/TRUST_PROXY must be .* \(got "10.0.0.0\/33"\)/);
    expect(() => read('10.0.0.1,proxy.internal')).toThrow(/got "proxy.internal"/);
    expect(() => read('maybe')).toThrow(/TRUST_PROXY must be true or false/);
  });
});

describe('SIGNUPS_PER_DAY', () => {
  it('defaults to 50 and takes a non-negative integer', () => {
    expect(loadConfig({ cap: signupsPerDayField() }, {}).cap).toBe(50);
    expect(loadConfig({ cap: signupsPerDayField() }, { SIGNUPS_PER_DAY: '5' }).cap).toBe(5);
    expect(() => loadConfig({ cap: signupsPerDayField() }, { SIGNUPS_PER_DAY: '-1' })).toThrow(/SIGNUPS_PER_DAY must be an integer/);
  });
});

describe('optional country lists', () => {
  const KNOWN = ['CA', 'FR', 'GB', 'US'];
  const read = (value?: string) => loadConfig({ countries: env.optionalCountries('COUNTRIES', KNOWN) }, { COUNTRIES: value }).countries;

  it('is no list when unset or empty', () => {
    expect(read()).toBeUndefined();
    expect(read('  ')).toBeUndefined();
  });

  it('reads comma-separated codes in any case, upper-case and once each', () => {
    expect(read('us, ca,US')).toEqual(['US', 'CA']);
  });

  it('refuses an entry that is not an alpha-2 code, naming it', () => {
    expect(() => read('US,USA')).toThrow(
      /COUNTRIES must be comma-separated ISO 3166 alpha-2 country codes, e.g. US,CA \(got "USA" in "US,USA"\)/,
    );
    expect(() => read('US,')).toThrow(/\(got "" in "US,"\)/);
    expect(() => read('U1')).toThrow(/got "U1"/);
  });

  it('refuses a code outside the known ones, naming it', () => {
    expect(() => read('US,ZZ')).toThrow(/COUNTRIES has "ZZ", which is not a country code with a phone numbering plan/);
  });
});

describe('natsAuthOf', () => {
  const of = (app: string, source: Record<string, string>) => natsAuthOf(loadConfig(natsAuthSpec(app), source));

  it('connects anonymously when no NATS user is set, as a server without authorization expects', () => {
    expect(of('signups-service', {})).toEqual({});
  });

  it("takes NATS_USER and NATS_PASSWORD, the app's own variables winning", () => {
    expect(of('signups-service', { NATS_USER: 'shared', NATS_PASSWORD: 'p' })).toEqual({ credentials: { user: 'shared', password: 'p' } });
    const both = {
      NATS_USER: 'shared',
      NATS_PASSWORD: 'p',
      SIGNUPS_SERVICE_NATS_USER: 'signups-service',
      SIGNUPS_SERVICE_NATS_PASSWORD: 'q',
    };
    expect(of('signups-service', both)).toEqual({ credentials: { user: 'signups-service', password: 'q' } });
    expect(of('api-gateway', both)).toEqual({ credentials: { user: 'shared', password: 'p' } });
  });

  it("refuses a user without a password, never falling back to another user's", () => {
    expect(() => of('signups-service', { NATS_USER: 'x' })).toThrow('a NATS user (x) needs its password');
    expect(() => of('signups-service', { NATS_PASSWORD: 'p', SIGNUPS_SERVICE_NATS_USER: 'signups-service' })).toThrow(ConfigError);
  });

  it('asks for TLS with the CA file', () => {
    expect(of('mcp-server', { NATS_CA_FILE: '/etc/nats-ca/ca.crt' })).toEqual({ tls: { caFile: '/etc/nats-ca/ca.crt' } });
  });
});
