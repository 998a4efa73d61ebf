import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT } from './manifests.js';

interface ComposeFile {
  services: Record<string, { environment?: Record<string, string> }>;
}

/** The variables docker-compose.yml sets for each of its services (YAML merge keys applied). */
export function composeEnvironment(): Map<string, Set<string>> {
  const compose = YAML.parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
  return new Map(Object.entries(compose.services).map(([service, { environment = {} }]) => [service, new Set(Object.keys(environment))]));
}
