import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import type { KubernetesObject } from './kubernetes-objects.js';
import type { VendoredSchema } from './kubernetes-schema.js';

const SCHEMA_KEY = 'kubernetes';

/** Problems with one object, empty when it is valid. */
export type ManifestValidator = (object: KubernetesObject) => string[];

/** The one vendored schema in a folder (deploy/schemas/kubernetes-<version>.json). */
export function loadVendoredSchema(folder: string): { file: string; schema: VendoredSchema } {
  const files = readdirSync(folder).filter((name) => /^kubernetes-\d+\.\d+\.json$/.test(name));
  if (files.length !== 1) throw new Error(`Expected one kubernetes-<version>.json in ${folder}, found ${files.length}`);
  const file = join(folder, files[0]!);
  return { file, schema: JSON.parse(readFileSync(file, 'utf8')) as VendoredSchema };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') return `${where}: unknown field "${String(error.params.additionalProperty)}"`;
  return `${where}: ${error.message ?? error.keyword}`;
}

/** Validates objects against the definition of their apiVersion/kind; a kind without one is a problem too. */
export function manifestValidator(schema: VendoredSchema): ManifestValidator {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true, keywords: ['kinds'] });
  ajv.addSchema(schema, SCHEMA_KEY);
  return (object) => {
    const kind = `${object.apiVersion}/${object.kind}`;
    const definition = schema.kinds[kind];
    if (!definition) return [`no schema for ${kind}`];
    const validate = ajv.getSchema(`${SCHEMA_KEY}#/definitions/${definition}`);
    if (!validate) throw new Error(`The schema has no definition ${definition}`);
    return validate(object) ? [] : (validate.errors ?? []).map(describe);
  };
}
