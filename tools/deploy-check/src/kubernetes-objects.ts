/** The parts of the Kubernetes objects in deploy/ that the checks read (the schema validates the rest). */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type: string };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: SecurityContext;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    securityContext?: SecurityContext;
    automountServiceAccountToken?: boolean;
    enableServiceLinks?: boolean;
    terminationGracePeriodSeconds?: number;
    restartPolicy?: string;
    volumes?: { name: string; emptyDir?: object; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
    topologySpreadConstraints?: { topologyKey: string; whenUnsatisfiable: string; labelSelector?: LabelSelector }[];
  };
}

export interface Deployment extends KubernetesObject {
  spec: { replicas?: number; selector: LabelSelector; template: PodTemplate };
}

export interface Job extends KubernetesObject {
  spec: { backoffLimit?: number; ttlSecondsAfterFinished?: number; template: PodTemplate };
}

export interface Service extends KubernetesObject {
  spec: { selector: Record<string, string>; ports: { name?: string; port: number; targetPort?: number | string }[] };
}

export interface HorizontalPodAutoscaler extends KubernetesObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: { type: string; resource?: { name: string; target: { type: string; averageUtilization?: number } } }[];
  };
}

export interface PodDisruptionBudget extends KubernetesObject {
  spec: { selector: LabelSelector; maxUnavailable?: number | string; minAvailable?: number | string };
}

export interface Ingress extends KubernetesObject {
  spec: {
    ingressClassName?: string;
    tls?: { hosts: string[]; secretName: string }[];
    rules: {
      host: string;
      http: {
        paths: { path: string; pathType: string; backend: { service: { name: string; port: { number?: number; name?: string } } } }[];
      };
    }[];
  };
}

export interface NetworkPolicyPeer {
  namespaceSelector?: LabelSelector;
  podSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
}

export interface NetworkPolicy extends KubernetesObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes?: ('Ingress' | 'Egress')[];
    ingress?: { from?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
    egress?: { to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  };
}

export interface ConfigMap extends KubernetesObject {
  data?: Record<string, string>;
}

export interface Secret extends KubernetesObject {
  data?: Record<string, string>;
}

interface KindMap {
  ConfigMap: ConfigMap;
  Deployment: Deployment;
  HorizontalPodAutoscaler: HorizontalPodAutoscaler;
  Ingress: Ingress;
  Job: Job;
  NetworkPolicy: NetworkPolicy;
  PodDisruptionBudget: PodDisruptionBudget;
  Secret: Secret;
  Service: Service;
}

export function ofKind<K extends keyof KindMap>(objects: readonly KubernetesObject[], kind: K): KindMap[K][] {
  return objects.filter((object) => object.kind === kind) as KindMap[K][];
}

/** The one object of a kind with that name; throws when there is none. */
export function named<K extends keyof KindMap>(objects: readonly KubernetesObject[], kind: K, name: string): KindMap[K] {
  const found = ofKind(objects, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`No ${kind} named ${name}`);
  return found;
}

/** Whether a label selector selects an object with these labels. */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const { matchLabels = {}, matchExpressions = [] } = selector;
  return (
    Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
    matchExpressions.every(({ key, operator, values = [] }) => {
      switch (operator) {
        case 'In':
          return key in labels && values.includes(labels[key]!);
        case 'NotIn':
          return !(key in labels) || !values.includes(labels[key]!);
        case 'Exists':
          return key in labels;
        case 'DoesNotExist':
          return !(key in labels);
      }
    })
  );
}

/** A container port given by number or by name, as a number; throws when the container has no such port. */
export function portNumber(container: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  const found = container.ports?.find((candidate) => candidate.name === port);
  if (!found) throw new Error(`Container ${container.name} has no port named ${port}`);
  return found.containerPort;
}
