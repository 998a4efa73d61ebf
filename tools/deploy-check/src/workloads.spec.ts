import { APP_NAMES, type AppName, DEFAULT_PORTS } from '#libs/config';
import {
  type ConfigMap,
  type Container,
  type KubernetesObject,
  named,
  ofKind,
  type PodTemplate,
  portNumber,
  selects,
} from './kubernetes-objects.js';
import { rendered } from './manifests.js';
import { EDGE_APPS, imageName, OVERLAYS, SCHEMA_APPS } from './platform.js';

const RENDERED = { dev: await rendered('dev'), prod: await rendered('prod') };

/** The replicas and autoscaling bounds each overlay promises. */
const SCALE = {
  dev: { replicas: 1, minReplicas: 1, maxReplicas: 2 },
  prod: { replicas: 2, minReplicas: 2, maxReplicas: 10 },
} as const;

const HARDENED = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

function onlyContainer(pod: PodTemplate): Container {
  expect(pod.spec.containers).toHaveLength(1);
  return pod.spec.containers[0]!;
}

/** Pod settings every app and Job shares: hardened pod and container, no API token, no service links, a writable /tmp. */
function expectHardenedPod(pod: PodTemplate, container: Container): void {
  expect(container.securityContext).toMatchObject(HARDENED);
  expect(pod.spec.securityContext).toMatchObject({
    runAsNonRoot: true,
    runAsUser: 1000,
    runAsGroup: 1000,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(pod.spec.automountServiceAccountToken).toBe(false);
  expect(pod.spec.enableServiceLinks).toBe(false);
  const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
  expect(pod.spec.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
}

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = RENDERED[overlay];
  const deployments = ofKind(objects, 'Deployment');
  const config = ofKind(objects, 'ConfigMap').find((map) => map.metadata.name.startsWith('signup-platform-config-')) as ConfigMap;

  it('labels every object as part of the platform, and all but the namespace and policies with its component (upgrades apply by label)', () => {
    const id = (object: KubernetesObject) => `${object.kind}/${object.metadata.name}`;
    expect(objects.filter((object) => object.metadata.labels?.['app.kubernetes.io/part-of'] !== 'signup-platform').map(id)).toEqual([]);
    const unsorted = objects.filter(
      (object) => !['Namespace', 'NetworkPolicy'].includes(object.kind) && !object.metadata.labels?.['app.kubernetes.io/component'],
    );
    expect(unsorted.map(id)).toEqual([]);
  });

  it('runs exactly one Deployment per app', () => {
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([...APP_NAMES].sort());
  });

  describe.each(APP_NAMES)('%s', (app: AppName) => {
    const deployment = named(objects, 'Deployment', app);
    const pod = deployment.spec.template;
    const container = pod.spec.containers[0]!;
    const port = DEFAULT_PORTS[app];

    it('runs its own image, alone in its pod, and listens on its port, named http', () => {
      expect(pod.spec.containers).toHaveLength(1);
      expect(imageName(container.image).repository).toBe(`signup-platform/${app}`);
      expect(container.command).toBeUndefined();
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
    });

    it('has startup and liveness probes on /healthz and a readiness probe on /readyz, on its port', () => {
      const probe = (name: 'startupProbe' | 'livenessProbe' | 'readinessProbe') => {
        const httpGet = container[name]?.httpGet;
        return httpGet && { path: httpGet.path, port: portNumber(container, httpGet.port) };
      };
      expect(probe('startupProbe')).toEqual({ path: '/healthz', port });
      expect(probe('livenessProbe')).toEqual({ path: '/healthz', port });
      expect(probe('readinessProbe')).toEqual({ path: '/readyz', port });
    });

    it('requests and limits CPU and memory', () => {
      for (const bound of ['requests', 'limits'] as const) {
        expect(Object.keys(container.resources?.[bound] ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
    });

    it('runs hardened, without an API token or service links, with a writable /tmp only', () => {
      expectHardenedPod(pod, container);
    });

    it('has time to drain after SIGTERM', () => {
      expect(pod.spec.terminationGracePeriodSeconds).toBe(30);
    });

    it('is labelled with the common scheme and selected by those labels', () => {
      expect(pod.metadata.labels).toMatchObject({ 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': 'signup-platform' });
      expect(pod.metadata.labels['app.kubernetes.io/component']).toBe(EDGE_APPS.includes(app) ? 'edge' : 'backend');
      expect(selects(deployment.spec.selector, pod.metadata.labels)).toBe(true);
    });

    it('is scraped by Prometheus on its port', () => {
      expect(pod.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    });

    it('has a Service selecting its pods only, on its port', () => {
      const service = named(objects, 'Service', app);
      const othersSelected = deployments.filter(
        (other) => other !== deployment && selects({ matchLabels: service.spec.selector }, other.spec.template.metadata.labels),
      );
      expect(selects({ matchLabels: service.spec.selector }, pod.metadata.labels)).toBe(true);
      expect(othersSelected).toEqual([]);
      expect(
        service.spec.ports.map((servicePort) => ({
          port: servicePort.port,
          target: portNumber(container, servicePort.targetPort ?? servicePort.port),
        })),
      ).toEqual([{ port, target: port }]);
    });

    it(`scales on CPU from ${SCALE[overlay].minReplicas} to ${SCALE[overlay].maxReplicas} replicas, starting from the minimum`, () => {
      const autoscaler = named(objects, 'HorizontalPodAutoscaler', app);
      expect(autoscaler.apiVersion).toBe('autoscaling/v2');
      expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(autoscaler.spec).toMatchObject({ minReplicas: SCALE[overlay].minReplicas, maxReplicas: SCALE[overlay].maxReplicas });
      expect(autoscaler.spec.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } },
      ]);
      expect(deployment.spec.replicas).toBe(SCALE[overlay].replicas);
    });

    it('lets voluntary disruptions take one pod at a time', () => {
      const budget = named(objects, 'PodDisruptionBudget', app);
      expect(budget.apiVersion).toBe('policy/v1');
      expect(selects(budget.spec.selector, pod.metadata.labels)).toBe(true);
      expect(
        deployments.filter((other) => other !== deployment && selects(budget.spec.selector, other.spec.template.metadata.labels)),
      ).toEqual([]);
      expect(budget.spec.maxUnavailable === 1 || budget.spec.minAvailable === 1).toBe(true);
    });

    it('sets OTEL_SERVICE_NAME to its name', () => {
      expect(container.env?.find((variable) => variable.name === 'OTEL_SERVICE_NAME')?.value).toBe(app);
    });
  });

  it('runs a migration Job for exactly the apps that own a schema, each running `migrate <app>` before the rollout', () => {
    const jobs = ofKind(objects, 'Job');
    expect(jobs.map((job) => onlyContainer(job.spec.template).args).sort()).toEqual(SCHEMA_APPS.map((app) => [app]).sort());
    for (const job of jobs) {
      const container = onlyContainer(job.spec.template);
      expect(imageName(container.image).repository).toBe('signup-platform/migrate');
      expect(container.command).toBeUndefined();
      expect(job.spec.template.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': container.args![0],
        'app.kubernetes.io/component': 'migration',
      });
      expect(job.metadata.annotations).toMatchObject({ 'argocd.argoproj.io/hook': 'PreSync' });
      expect(job.spec).toMatchObject({ backoffLimit: expect.any(Number), ttlSecondsAfterFinished: expect.any(Number) });
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      expectHardenedPod(job.spec.template, container);
    }
  });

  it('does not route Service traffic to migration Jobs', () => {
    for (const service of ofKind(objects, 'Service')) {
      expect(
        ofKind(objects, 'Job').filter((job) => selects({ matchLabels: service.spec.selector }, job.spec.template.metadata.labels)),
      ).toEqual([]);
    }
  });

  it('runs every app and the migrations from one tag', () => {
    const images = [...deployments, ...ofKind(objects, 'Job')].map((workload) =>
      imageName(workload.spec.template.spec.containers[0]!.image),
    );
    const tags = new Set(images.map((image) => image.tag));
    expect(tags.size).toBe(1);
    expect([...tags][0]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each(EDGE_APPS)('routes the public host of %s to its Service port over TLS', (app) => {
    const url = { 'api-gateway': 'PUBLIC_BASE_URL', 'auth-server': 'AUTH_URL', 'mcp-server': 'MCP_URL' }[app as string]!;
    const host = new URL(config.data![url]!).host;
    const ingresses = ofKind(objects, 'Ingress').filter((ingress) => ingress.spec.rules.some((rule) => rule.host === host));
    expect(ingresses).toHaveLength(1);
    const [ingress] = ingresses as [(typeof ingresses)[number]];
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.spec.ingressClassName).toBeTruthy();
    expect(ingress.spec.tls?.flatMap((tls) => tls.hosts)).toContain(host);
    expect(
      ingress.spec.rules.flatMap((rule) =>
        rule.http.paths.map((path) => ({ host: rule.host, path: path.path, backend: path.backend.service })),
      ),
    ).toEqual([{ host, path: '/', backend: { name: app, port: { number: DEFAULT_PORTS[app] } } }]);
  });

  it('exposes nothing but the three public hosts', () => {
    expect(
      ofKind(objects, 'Ingress')
        .flatMap((ingress) => ingress.spec.rules.map((rule) => rule.http.paths[0]!.backend.service.name))
        .sort(),
    ).toEqual([...EDGE_APPS].sort());
  });
});

describe('the prod overlay only', () => {
  const objects = RENDERED.prod;

  it.each(APP_NAMES)('never puts two replicas of %s on one node while another can take one', (app) => {
    const pod = named(objects, 'Deployment', app).spec.template;
    const byNode = pod.spec.topologySpreadConstraints?.find((constraint) => constraint.topologyKey === 'kubernetes.io/hostname');
    expect(byNode?.whenUnsatisfiable).toBe('DoNotSchedule');
    expect(selects(byNode?.labelSelector ?? {}, pod.metadata.labels)).toBe(true);
  });

  it('gives prod bigger containers than dev', () => {
    const memory = (objects: KubernetesObject[]) =>
      named(objects, 'Deployment', 'api-gateway').spec.template.spec.containers[0]!.resources!.requests!.memory;
    expect([memory(RENDERED.dev), memory(RENDERED.prod)]).toEqual(['160Mi', '384Mi']);
  });
});
