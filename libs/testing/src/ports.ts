import { createServer } from 'node:net';
import { APP_NAMES, type AppName } from '#libs/config';

/** n distinct ports that were free a moment ago. */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export interface LocalStack {
  /** Each app's origin, e.g. http://127.0.0.1:41234 */
  origins: Record<AppName, string>;
  /** The port and public URL variables that put a whole stack on these ports. */
  env: Record<string, string>;
}

/** Free ports for the six apps, and the environment that puts a stack (either mode) on them. */
export async function localStack(): Promise<LocalStack> {
  const ports = await freePorts(APP_NAMES.length);
  const origins = Object.fromEntries(APP_NAMES.map((app, i) => [app, `http://127.0.0.1:${ports[i]}`])) as Record<AppName, string>;
  const env: Record<string, string> = Object.fromEntries(
    APP_NAMES.map((app, i) => [`${app.toUpperCase().replaceAll('-', '_')}_PORT`, String(ports[i])]),
  );
  Object.assign(env, {
    PUBLIC_BASE_URL: `${origins['api-gateway']}/api/v1`,
    AUTH_URL: origins['auth-server'],
    MCP_URL: `${origins['mcp-server']}/mcp`,
    PROBLEM_BASE: `${origins['api-gateway']}/problems`,
  });
  return { origins, env };
}
