import { kubernetesVersion, type OpenApiDocument, type OpenApiSchema, vendorKubernetesSchemas } from './kubernetes-schema.js';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const SPEC = 'io.k8s.api.apps.v1.DeploymentSpec';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** The group versions Kubernetes 1.27 serves that tell it apart from its neighbours. */
const PATHS_1_27 = [
  '/api/v1/namespaces',
  '/apis/apps/v1/deployments',
  '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas',
  '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
  '/apis/resource.k8s.io/v1alpha2/resourceclasses',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function openApi(schemas: Record<string, OpenApiSchema>, paths = PATHS_1_27): OpenApiDocument {
  return { paths: Object.fromEntries(paths.map((path) => [path, {}])), components: { schemas } };
}

const SCHEMAS: Record<string, OpenApiSchema> = {
  [DEPLOYMENT]: {
    description: 'Deployment enables declarative updates for Pods and ReplicaSets.',
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: ref(META), spec: ref(SPEC) },
    'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'Deployment' }],
  },
  [SPEC]: {
    type: 'object',
    required: ['selector'],
    properties: {
      replicas: { type: 'integer', format: 'int32' },
      maxSurge: ref(INT_OR_STRING),
      memory: ref(QUANTITY),
      ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } }, 'x-kubernetes-list-type': 'atomic' },
    },
  },
  [META]: {
    type: 'object',
    properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
  },
  [INT_OR_STRING]: { type: 'string', format: 'int-or-string' },
  [QUANTITY]: { type: 'string' },
  'io.k8s.api.core.v1.Pod': {
    type: 'object',
    properties: { kind: { type: 'string' } },
    'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }],
  },
};

describe('kubernetesVersion', () => {
  it('tells Kubernetes 1.27 from the group versions it serves', () => {
    expect(kubernetesVersion(openApi({}))).toBe('1.27');
  });

  it('tells 1.28 by admissionregistration v1beta1', () => {
    expect(kubernetesVersion(openApi({}, [...PATHS_1_27, '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies']))).toBe(
      '1.28',
    );
  });

  it('refuses to guess when the group versions fit no release or several', () => {
    expect(() => kubernetesVersion(openApi({}, ['/api/v1/namespaces']))).toThrow(/Cannot tell the Kubernetes version/);
  });
});

describe('vendorKubernetesSchemas', () => {
  const { version, schema } = vendorKubernetesSchemas(openApi(SCHEMAS), ['apps/v1/Deployment']);

  it('maps each apiVersion/kind to its definition', () => {
    expect(version).toBe('1.27');
    expect(schema.kinds).toEqual({ 'apps/v1/Deployment': DEPLOYMENT });
  });

  it('keeps only the definitions the kinds reach, with their $refs rewritten', () => {
    expect(Object.keys(schema.definitions)).toEqual([DEPLOYMENT, SPEC, QUANTITY, META, INT_OR_STRING]);
    expect(schema.definitions[DEPLOYMENT]!.properties).toMatchObject({ metadata: { $ref: `#/definitions/${META}` } });
  });

  it('forbids unknown fields wherever an object lists its properties, and leaves maps open', () => {
    expect(schema.definitions[DEPLOYMENT]!.additionalProperties).toBe(false);
    expect(schema.definitions[SPEC]).toMatchObject({
      additionalProperties: false,
      properties: { ports: { items: { additionalProperties: false } } },
    });
    expect(schema.definitions[META]!.properties).toMatchObject({ labels: { type: 'object', additionalProperties: { type: 'string' } } });
  });

  it('takes an int-or-string as an integer or a string and a quantity as a string or a number', () => {
    expect(schema.definitions[INT_OR_STRING]).toEqual({ type: ['integer', 'string'] });
    expect(schema.definitions[QUANTITY]).toEqual({ type: ['string', 'number'] });
  });

  it('drops descriptions, formats and x-kubernetes extensions, keeping required fields', () => {
    expect(schema.definitions[DEPLOYMENT]).not.toHaveProperty('description');
    expect(schema.definitions[DEPLOYMENT]).not.toHaveProperty('x-kubernetes-group-version-kind');
    expect(schema.definitions[SPEC]!.properties).toMatchObject({ replicas: { type: 'integer' }, ports: { type: 'array' } });
    expect(JSON.stringify(schema)).not.toMatch(/"format"|x-kubernetes/);
    expect(schema.definitions[SPEC]!.required).toEqual(['selector']);
  });

  it('fails on a kind the API does not have', () => {
    expect(() => vendorKubernetesSchemas(openApi(SCHEMAS), ['apps/v1/StatefulSet'])).toThrow(
      'Kubernetes 1.27 has no kind apps/v1/StatefulSet',
    );
  });

  it('fails on a schema keyword it would not carry over', () => {
    const schemas = { ...SCHEMAS, [QUANTITY]: { type: 'string', pattern: '^[0-9]+$' } };
    expect(() =>
      vendorKubernetesSchemas(openApi({ ...schemas, [SPEC]: { ...SCHEMAS[SPEC]!, oneOf: [] } }), ['apps/v1/Deployment']),
    ).toThrow('Unsupported schema keyword "oneOf"');
  });
});
