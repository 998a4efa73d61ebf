/** The admin CLI: one command, one HTTP call to the auth-server's admin API, one JSON object out. */
import { parseArgs } from 'node:util';

type Flags = Record<string, string | undefined>;

export interface AdminRequest {
  method: 'POST' | 'PATCH';
  path: string;
  body?: Record<string, string | undefined>;
}

interface Command {
  usage: string;
  required: readonly string[];
  optional: readonly string[];
  request(flags: Flags): AdminRequest;
}

const segment = (value: string | undefined): string => encodeURIComponent(value ?? '');

const COMMANDS: Record<string, Command> = {
  'org:create': {
    usage: '--name N [--tier free|pro|org] [--time-zone IANA-NAME]',
    required: ['name'],
    optional: ['tier', 'time-zone'],
    request: (f) => ({ method: 'POST', path: '/admin/organizations', body: { name: f.name, tier: f.tier, timeZone: f['time-zone'] } }),
  },
  'org:tier': {
    usage: '--org ID --tier free|pro|org',
    required: ['org', 'tier'],
    optional: [],
    request: (f) => ({ method: 'PATCH', path: `/admin/organizations/${segment(f.org)}`, body: { tier: f.tier } }),
  },
  'org:time-zone': {
    usage: '--org ID --time-zone IANA-NAME',
    required: ['org', 'time-zone'],
    optional: [],
    request: (f) => ({ method: 'PATCH', path: `/admin/organizations/${segment(f.org)}`, body: { timeZone: f['time-zone'] } }),
  },
  'user:create': {
    usage: '--email E --password P --org ID [--role owner|admin|member]',
    required: ['email', 'password', 'org'],
    optional: ['role'],
    request: (f) => ({
      method: 'POST',
      path: '/admin/users',
      body: { email: f.email, password: f.password, organizationId: f.org, role: f.role },
    }),
  },
  'apikey:create': {
    usage: '--org ID [--user ID] [--mode test|live] [--scopes "a b"] [--name N]',
    required: ['org'],
    optional: ['user', 'mode', 'scopes', 'name'],
    request: (f) => ({
      method: 'POST',
      path: '/admin/api-keys',
      body: { organizationId: f.org, userId: f.user, mode: f.mode, scopes: f.scopes, name: f.name },
    }),
  },
  'apikey:revoke': {
    usage: '--id ID',
    required: ['id'],
    optional: [],
    request: (f) => ({ method: 'POST', path: `/admin/api-keys/${segment(f.id)}/revoke` }),
  },
};

const DEFAULT_AUTH_URL = 'http://localhost:3001';

export const USAGE = [
  'Usage: admin-cli <command> [--flags]',
  ...Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.usage}`),
  `Environment: ADMIN_TOKEN (required), AUTH_URL (default ${DEFAULT_AUTH_URL}).`,
  '',
].join('\n');

export class UsageError extends Error {}

/** The admin API call a command line asks for; UsageError for an unknown command, flag or a missing flag. */
export function parseAdminCommand(argv: readonly string[]): AdminRequest {
  const [name, ...rest] = argv;
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name === undefined ? 'No command given.' : `Unknown command "${name}".`);
  const options = Object.fromEntries([...command.required, ...command.optional].map((flag) => [flag, { type: 'string' as const }]));
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: [...rest], options, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const flags: Flags = Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const missing = command.required.filter((flag) => flags[flag] === undefined);
  if (missing.length > 0) throw new UsageError(`${name} needs ${missing.map((flag) => `--${flag}`).join(', ')}.`);
  return command.request(flags);
}

export interface AdminCliIo {
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** fetch's own message is only "fetch failed": add the reason (ECONNREFUSED, bad port, ...). */
function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (!(err.cause instanceof Error)) return err.message;
  return `${err.message} (${(err.cause as NodeJS.ErrnoException).code ?? err.cause.message})`;
}

/**
 * Runs one command; returns the exit code: 0 on success, 1 when the API answers a problem (printed
 * on stdout) or cannot be reached, 2 on a usage error (printed on stderr).
 */
export async function runAdminCli(argv: readonly string[], io: AdminCliIo): Promise<number> {
  let request: AdminRequest;
  try {
    request = parseAdminCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`${err.message}\n\n${USAGE}`);
    return 2;
  }
  const token = io.env.ADMIN_TOKEN?.trim();
  if (!token) {
    io.stderr.write(`ADMIN_TOKEN is not set.\n\n${USAGE}`);
    return 2;
  }
  const base = (io.env.AUTH_URL?.trim() || DEFAULT_AUTH_URL).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await io.fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, ...(request.body && { 'content-type': 'application/json' }) },
      ...(request.body && { body: JSON.stringify(request.body) }),
    });
  } catch (err) {
    io.stderr.write(`Cannot reach the auth-server at ${base}: ${describeFailure(err)}\n`);
    return 1;
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    io.stderr.write(`The auth-server answered ${response.status} without a JSON body.\n`);
    return 1;
  }
  io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  return response.ok ? 0 : 1;
}
