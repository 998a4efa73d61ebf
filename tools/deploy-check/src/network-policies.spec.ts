import { APP_NAMES, type AppName, DEFAULT_PORTS } from '#libs/config';
import { named, ofKind } from './kubernetes-objects.js';
import { rendered } from './manifests.js';
import { allowedTraffic, isDefaultDeny } from './network-policies.js';
import { EDGE_APPS, NAMESPACES, OVERLAYS, REDIS_APPS, SCHEMA_APPS, THIRD_PARTY_APPS } from './platform.js';

const DNS = [`${NAMESPACES.dns}[k8s-app=kube-dns]:53/TCP`, `${NAMESPACES.dns}[k8s-app=kube-dns]:53/UDP`];

/** Exactly the connections an app opens: DNS, NATS, and its database, Redis and third parties if it has them. */
function expectedEgress(app: AppName): string[] {
  return [
    ...DNS,
    `${NAMESPACES.nats}:4222/TCP`,
    ...(SCHEMA_APPS.includes(app) ? [`${NAMESPACES.postgres}:5432/TCP`] : []),
    ...(REDIS_APPS.includes(app) ? [`${NAMESPACES.redis}:6379/TCP`] : []),
    ...(THIRD_PARTY_APPS.includes(app) ? ['internet:443/TCP'] : []),
    ...(app === 'reminders-service' ? ['internet:25/TCP', 'internet:465/TCP', 'internet:587/TCP'] : []),
  ].sort();
}

/** Exactly who reaches an app: Prometheus, and the ingress controller for the public ones. */
function expectedIngress(app: AppName): string[] {
  const port = DEFAULT_PORTS[app];
  return [...(EDGE_APPS.includes(app) ? [`${NAMESPACES.ingress}:${port}/TCP`] : []), `${NAMESPACES.monitoring}:${port}/TCP`].sort();
}

const RENDERED = { dev: await rendered('dev'), prod: await rendered('prod') };
const WITH_TRACING = await rendered('prod-with-tracing');

describe.each(OVERLAYS)('network policies of the %s overlay', (overlay) => {
  const objects = RENDERED[overlay];
  const policies = ofKind(objects, 'NetworkPolicy');
  const pod = (app: AppName) => named(objects, 'Deployment', app).spec.template;

  it('deny all ingress and egress by default', () => {
    expect(policies.filter(isDefaultDeny).map((policy) => policy.metadata.name)).toEqual(['default-deny']);
  });

  it.each(APP_NAMES)('let %s connect only to what it uses', (app) => {
    expect(allowedTraffic(policies, pod(app), 'Egress')).toEqual(expectedEgress(app));
  });

  it.each(APP_NAMES)('let only the ingress controller (public apps) and Prometheus reach %s', (app) => {
    expect(allowedTraffic(policies, pod(app), 'Ingress')).toEqual(expectedIngress(app));
  });

  it('let the ingress controller reach the three public apps and no other', () => {
    const reachable = APP_NAMES.filter((app) =>
      allowedTraffic(policies, pod(app), 'Ingress').some((peer) => peer.startsWith(`${NAMESPACES.ingress}:`)),
    );
    expect(reachable).toEqual([...EDGE_APPS]);
  });

  it('let the migration Jobs reach Postgres and DNS only, and nothing reach them', () => {
    for (const job of ofKind(objects, 'Job')) {
      expect(allowedTraffic(policies, job.spec.template, 'Egress')).toEqual([...DNS, `${NAMESPACES.postgres}:5432/TCP`].sort());
      expect(allowedTraffic(policies, job.spec.template, 'Ingress')).toEqual([]);
    }
  });
});

describe('the tracing component', () => {
  const policies = ofKind(WITH_TRACING, 'NetworkPolicy');

  it.each(APP_NAMES)('adds the OTLP collector, and nothing else, to where %s connects', (app) => {
    const pod = named(WITH_TRACING, 'Deployment', app).spec.template;
    expect(allowedTraffic(policies, pod, 'Egress')).toEqual([...expectedEgress(app), `${NAMESPACES.monitoring}:4318/TCP`].sort());
  });

  it('points every app at the collector', () => {
    const config = ofKind(WITH_TRACING, 'ConfigMap').find((map) => map.metadata.name.startsWith('signup-platform-config-'));
    expect(new URL(config!.data!.OTEL_EXPORTER_OTLP_ENDPOINT!).port).toBe('4318');
  });
});
