/**
 * Turns the Kubernetes OpenAPI (v3, as converted by APIs.guru) into one strict JSON Schema
 * (draft-07) holding only the definitions the kinds in deploy/ reach, like kubeconform's
 * "-strict" schemas: an unknown field or a wrong type is an error.
 */

/** A schema node of the OpenAPI document. */
export type OpenApiSchema = { readonly [keyword: string]: unknown };

export interface OpenApiDocument {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, OpenApiSchema> };
}

export type JsonSchema = { [keyword: string]: unknown };

export interface VendoredSchema {
  $schema: string;
  $comment: string;
  /** "apiVersion/kind" (e.g. "apps/v1/Deployment") → name of its definition. */
  kinds: Record<string, string>;
  definitions: Record<string, JsonSchema>;
}

/** The kinds deploy/ renders. A new kind there fails the manifest test until it is added here and the schema regenerated. */
export const VENDORED_KINDS = [
  'v1/ConfigMap',
  'v1/Namespace',
  'v1/Secret',
  'v1/Service',
  'apps/v1/Deployment',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'batch/v1/Job',
  'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/NetworkPolicy',
  'policy/v1/PodDisruptionBudget',
] as const;

/**
 * API group versions that tell minor releases apart: [group version, first minor serving it,
 * first minor no longer serving it].
 */
const VERSION_MARKERS: ReadonlyArray<readonly [string, number, number?]> = [
  ['autoscaling/v2beta2', 12, 26],
  ['flowcontrol.apiserver.k8s.io/v1beta2', 23, 29],
  ['flowcontrol.apiserver.k8s.io/v1beta3', 26, 32],
  ['flowcontrol.apiserver.k8s.io/v1', 29],
  ['resource.k8s.io/v1alpha2', 27, 31],
  ['admissionregistration.k8s.io/v1beta1', 28],
];

/** The minor releases the markers can tell apart (admissionregistration v1beta1 was also served up to 1.21). */
const CANDIDATE_MINORS = Array.from({ length: 9 }, (_, i) => 23 + i);

/** Definitions the OpenAPI gives as plain strings but the API server also takes as numbers. */
const SCALAR_OVERRIDES: Readonly<Record<string, JsonSchema>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: ['integer', 'string'] },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: ['string', 'number'] },
};

/** Documentation and API-machinery hints, not constraints on a manifest. */
const IGNORED_KEYWORD = /^(description|format|x-kubernetes-.+)$/;

const REF_PREFIX = '#/components/schemas/';

/** The group versions the API serves, from its paths: "v1" for /api/v1, "<group>/<version>" for /apis/<group>/<version>. */
export function servedGroupVersions(doc: OpenApiDocument): Set<string> {
  const served = new Set<string>();
  for (const path of Object.keys(doc.paths)) {
    const match = /^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))\//.exec(path);
    if (match) served.add(match[1] ?? match[2]!);
  }
  return served;
}

/** The Kubernetes minor release ("1.27") whose served group versions match the document's; throws unless exactly one does. */
export function kubernetesVersion(doc: OpenApiDocument): string {
  const served = servedGroupVersions(doc);
  const matching = CANDIDATE_MINORS.filter((minor) =>
    VERSION_MARKERS.every(([groupVersion, from, until = Infinity]) => served.has(groupVersion) === (minor >= from && minor < until)),
  );
  if (matching.length !== 1) {
    throw new Error(
      `Cannot tell the Kubernetes version from the served group versions (candidates: ${matching.map((m) => `1.${m}`).join(', ') || 'none'})`,
    );
  }
  return `1.${matching[0]}`;
}

/** "apiVersion/kind" → definition name, from each definition's x-kubernetes-group-version-kind. */
export function kindDefinitions(doc: OpenApiDocument): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const gvks = (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[];
    if (gvks.length !== 1) continue;
    const [{ group, version, kind }] = gvks as [{ group: string; version: string; kind: string }];
    kinds.set(`${group ? `${group}/` : ''}${version}/${kind}`, name);
  }
  return kinds;
}

function definitionName(ref: unknown): string {
  if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) throw new Error(`Unsupported $ref ${JSON.stringify(ref)}`);
  return ref.slice(REF_PREFIX.length);
}

/** One schema node made strict, with its $refs rewritten; every definition it refers to is added to `refs`. */
function strictNode(node: OpenApiSchema, refs: Set<string>): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (IGNORED_KEYWORD.test(keyword)) continue;
    switch (keyword) {
      case '$ref': {
        const name = definitionName(value);
        refs.add(name);
        out.$ref = `#/definitions/${name}`;
        break;
      }
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, OpenApiSchema>).map(([property, schema]) => [property, strictNode(schema, refs)]),
        );
        break;
      case 'items':
        out.items = strictNode(value as OpenApiSchema, refs);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : strictNode(value as OpenApiSchema, refs);
        break;
      case 'type':
      case 'required':
        out[keyword] = value;
        break;
      default:
        throw new Error(`Unsupported schema keyword "${keyword}"`);
    }
  }
  if (out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** The strict schema of the given kinds and of every definition they reach, sorted by name. */
export function vendorKubernetesSchemas(doc: OpenApiDocument, kinds: readonly string[]): { version: string; schema: VendoredSchema } {
  const version = kubernetesVersion(doc);
  const known = kindDefinitions(doc);
  const kindMap = Object.fromEntries(
    [...kinds].sort().map((kind) => {
      const name = known.get(kind);
      if (!name) throw new Error(`Kubernetes ${version} has no kind ${kind}`);
      return [kind, name];
    }),
  );
  const definitions: Record<string, JsonSchema> = {};
  const pending = Object.values(kindMap);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (definitions[name]) continue;
    const source = doc.components.schemas[name];
    if (!source) throw new Error(`Missing definition ${name}`);
    const refs = new Set<string>();
    definitions[name] = SCALAR_OVERRIDES[name] ?? strictNode(source, refs);
    pending.push(...refs);
  }
  const schema: VendoredSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $comment: `Kubernetes ${version}, strict: generated by tools/deploy-check/src/vendor-kubernetes-schemas.ts (see README.md beside this file); do not edit.`,
    kinds: kindMap,
    definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  return { version, schema };
}
