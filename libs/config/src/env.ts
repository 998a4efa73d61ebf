/**
 * Typed, validated environment. Each field reads one variable; loadConfig reads them all,
 * collects every problem and throws one ConfigError naming each bad variable.
 */
export type Env = Record<string, string | undefined>;

export interface Field<T> {
  readonly name: string;
  read(raw: string | undefined): T;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** A bad value of one variable; loadConfig collects them. */
export class FieldProblem extends Error {}

function field<T>(name: string, read: (raw: string | undefined) => T): Field<T> {
  return { name, read };
}

function present(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== '';
}

function need(name: string, raw: string | undefined): string {
  if (!present(raw)) throw new FieldProblem(`${name} is required`);
  return raw.trim();
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h)$/;

export const env = {
  string(name: string, fallback?: string): Field<string> {
    return field(name, (raw) => (present(raw) ? raw.trim() : (fallback ?? need(name, raw))));
  },
  optionalString(name: string): Field<string | undefined> {
    return field(name, (raw) => (present(raw) ? raw.trim() : undefined));
  },
  /** A secret: like string, and its value never appears in a configuration error. */
  secret(name: string): Field<string> {
    return field(name, (raw) => need(name, raw));
  },
  /** A 256-bit key (`openssl rand -base64 32`): standard base64 of 32 bytes, required; never shown in an error. */
  secretKey(name: string): Field<string> {
    return field(name, (raw) => {
      const value = need(name, raw);
      const key = Buffer.from(value, 'base64');
      if (key.length !== 32 || key.toString('base64') !== value) {
        throw new FieldProblem(`${name} must be 32 bytes in standard base64 (openssl rand -base64 32)`);
      }
      return value;
    });
  },
  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): Field<number> {
    return field(name, (raw) => {
      if (!present(raw)) return fallback;
      const value = Number(raw);
      const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new FieldProblem(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      }
      return value;
    });
  },
  bool(name: string, fallback: boolean): Field<boolean> {
    return field(name, (raw) => {
      if (!present(raw)) return fallback;
      const value = raw.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(value)) return true;
      if (['false', '0', 'no'].includes(value)) return false;
      throw new FieldProblem(`${name} must be true or false (got "${raw}")`);
    });
  },
  url(name: string, fallback?: string): Field<string> {
    return field(name, (raw) => {
      const value = present(raw) ? raw.trim() : (fallback ?? need(name, raw));
      if (!URL.canParse(value)) throw new FieldProblem(`${name} must be an absolute URL (got "${value}")`);
      return value.replace(/\/+$/, '');
    });
  },
  optionalUrl(name: string): Field<string | undefined> {
    return field(name, (raw) => {
      if (!present(raw)) return undefined;
      if (!URL.canParse(raw.trim())) throw new FieldProblem(`${name} must be an absolute URL (got "${raw}")`);
      return raw.trim();
    });
  },
  oneOf<const T extends string>(name: string, values: readonly T[], fallback: T): Field<T> {
    return field(name, (raw) => {
      if (!present(raw)) return fallback;
      const value = raw.trim() as T;
      if (!values.includes(value)) throw new FieldProblem(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
      return value;
    });
  },
  optionalOneOf<const T extends string>(name: string, values: readonly T[]): Field<T | undefined> {
    return field(name, (raw) => (present(raw) ? env.oneOf(name, values, values[0]!).read(raw) : undefined));
  },
  /**
   * A comma-separated list of ISO 3166 alpha-2 country codes, any case (`US,ca`), each one of
   * `known`; answers them upper-case, once each. Unset or empty: undefined (no list).
   */
  optionalCountries(name: string, known: readonly string[]): Field<readonly string[] | undefined> {
    const knownCodes = new Set(known);
    return field(name, (raw) => {
      if (!present(raw)) return undefined;
      const codes = raw.split(',').map((part) => part.trim().toUpperCase());
      const malformed = codes.find((code) => !/^[A-Z]{2}$/.test(code));
      if (malformed !== undefined) {
        throw new FieldProblem(
          `${name} must be comma-separated ISO 3166 alpha-2 country codes, e.g. US,CA (got "${malformed}" in "${raw}")`,
        );
      }
      const unknown = codes.find((code) => !knownCodes.has(code));
      if (unknown !== undefined)
        throw new FieldProblem(`${name} has "${unknown}", which is not a country code with a phone numbering plan`);
      return [...new Set(codes)];
    });
  },
  /** Comma-separated delays (`500ms`, `5s`, `5m`, `2h`), in milliseconds; unset or empty: `fallback`. */
  durations(name: string, fallback: string): Field<number[]> {
    return field(name, (raw) =>
      (present(raw) ? raw.trim() : fallback).split(',').map((part) => {
        const match = DURATION.exec(part.trim());
        if (!match) throw new FieldProblem(`${name} must list delays like 5s,5m,2h (got "${part.trim()}")`);
        return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
      }),
    );
  },
  json<T>(name: string, fallback: T, validate: (value: unknown) => string | undefined): Field<T> {
    return field(name, (raw) => {
      if (!present(raw)) return fallback;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw new FieldProblem(`${name} must be valid JSON`);
      }
      const problem = validate(value);
      if (problem) throw new FieldProblem(`${name} ${problem}`);
      return value as T;
    });
  },
};

export type ConfigSpec = Record<string, Field<unknown>>;
export type ConfigOf<S extends ConfigSpec> = { readonly [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** Reads and validates every field; throws one ConfigError naming every bad variable. */
export function loadConfig<S extends ConfigSpec>(spec: S, source: Env = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(spec)) {
    try {
      out[key] = f.read(source[f.name]);
    } catch (err) {
      if (!(err instanceof FieldProblem)) throw err;
      problems.push(err.message);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}
