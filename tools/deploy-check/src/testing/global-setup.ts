import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder where the first spec that needs a kustomize build stores them all (see rendered() in
 * ../manifests.ts), for the workers to share. Loaded as CommonJS by jest: no local imports.
 */
export default async function createRenderingsFolder(): Promise<void> {
  process.env.DEPLOY_CHECK_RENDERINGS = await mkdtemp(join(tmpdir(), 'deploy-check-renderings-'));
}
