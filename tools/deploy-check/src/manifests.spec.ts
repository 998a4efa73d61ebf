import { join } from 'node:path';
import { type KubernetesObject, named } from './kubernetes-objects.js';
import { VENDORED_KINDS } from './kubernetes-schema.js';
import { loadVendoredSchema, manifestValidator } from './manifest-validator.js';
import { DEPLOY, rendered, RENDERING_NAMES, type RenderingName } from './manifests.js';

const { file, schema } = loadVendoredSchema(join(DEPLOY, 'schemas'));
const validate = manifestValidator(schema);

const RENDERINGS = Object.fromEntries(
  await Promise.all(RENDERING_NAMES.map(async (name) => [name, await rendered(name)] as const)),
) as Record<RenderingName, KubernetesObject[]>;

/** Every rendered object's problems, keyed "Kind/name", only for objects that have some. */
function problems(objects: readonly KubernetesObject[]): Record<string, string[]> {
  return Object.fromEntries(
    objects.map((object) => [`${object.kind}/${object.metadata.name}`, validate(object)] as const).filter(([, found]) => found.length > 0),
  );
}

describe('rendered manifests', () => {
  it.each(RENDERING_NAMES)('%s renders with kustomize and every object matches its Kubernetes schema', (name) => {
    const objects = RENDERINGS[name];
    expect(objects.length).toBeGreaterThan(0);
    expect(problems(objects)).toEqual({});
  });
});

describe('the validator', () => {
  const deployment = () =>
    structuredClone(named(RENDERINGS.dev, 'Deployment', 'api-gateway')) as KubernetesObject & { spec: Record<string, unknown> };

  it(`uses ${file.slice(DEPLOY.length + 1)}, which covers the kinds the vendoring tool lists`, () => {
    expect(Object.keys(schema.kinds).sort()).toEqual([...VENDORED_KINDS].sort());
  });

  it('accepts a rendered Deployment as is', () => {
    expect(validate(deployment())).toEqual([]);
  });

  it('rejects an unknown field', () => {
    const object = deployment();
    object.spec.replica = 2;
    expect(validate(object)).toEqual(['/spec: unknown field "replica"']);
  });

  it('rejects an unknown field deep in the pod template', () => {
    const object = deployment() as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    object.spec.template.spec.containers[0]!.readinessProbes = {};
    expect(validate(object as unknown as KubernetesObject)).toEqual(['/spec/template/spec/containers/0: unknown field "readinessProbes"']);
  });

  it('rejects a wrong type', () => {
    const object = deployment();
    object.spec.replicas = 'two';
    expect(validate(object)).toEqual(['/spec/replicas: must be integer']);
  });

  it('takes an int-or-string as either and a quantity as a string or a number', () => {
    const object = deployment() as unknown as {
      spec: {
        strategy: { rollingUpdate: Record<string, unknown> };
        template: { spec: { containers: { resources: { limits: Record<string, unknown> } }[] } };
      };
    };
    object.spec.strategy.rollingUpdate = { maxSurge: '25%', maxUnavailable: 0 };
    object.spec.template.spec.containers[0]!.resources.limits = { cpu: 1, memory: '512Mi' };
    expect(validate(object as unknown as KubernetesObject)).toEqual([]);
  });

  it('rejects an object whose kind has no schema', () => {
    expect(validate({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' } })).toEqual([
      'no schema for apps/v1/StatefulSet',
    ]);
    expect(validate({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'x' } })).toEqual([
      'no schema for extensions/v1beta1/Ingress',
    ]);
  });
});
