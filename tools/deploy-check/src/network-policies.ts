import {
  type LabelSelector,
  type NetworkPolicy,
  type NetworkPolicyPeer,
  type NetworkPolicyPort,
  type PodTemplate,
  portNumber,
  selects,
} from './kubernetes-objects.js';

/** Ranges a rule to "the internet" must leave out: private, carrier-grade NAT, loopback, link-local (cloud metadata). */
export const NON_PUBLIC_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16'];

const NAMESPACE_NAME = 'kubernetes.io/metadata.name';

function isEmpty(selector: LabelSelector | undefined): boolean {
  return !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
}

function describeSelector(selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  const expressions = (selector.matchExpressions ?? []).map(({ key, operator, values = [] }) => `${key} ${operator} (${values.join(',')})`);
  return [...labels, ...expressions].join(',');
}

/** The namespace a selector names by its name label, or the selector itself. */
function describeNamespaces(selector: LabelSelector): string {
  const { matchLabels = {}, matchExpressions = [] } = selector;
  const keys = Object.keys(matchLabels);
  return keys.length === 1 && keys[0] === NAMESPACE_NAME && matchExpressions.length === 0
    ? matchLabels[NAMESPACE_NAME]!
    : `namespaces[${describeSelector(selector)}]`;
}

/** "internet" for every public IPv4 address, else the namespace (and pods) or block a peer allows. */
function describePeer(peer: NetworkPolicyPeer): string {
  if (peer.ipBlock) {
    const { cidr, except = [] } = peer.ipBlock;
    return cidr === '0.0.0.0/0' && NON_PUBLIC_RANGES.every((range) => except.includes(range))
      ? 'internet'
      : `ipBlock[${cidr} except ${except.join(',')}]`;
  }
  const namespaces = peer.namespaceSelector
    ? isEmpty(peer.namespaceSelector)
      ? 'any namespace'
      : describeNamespaces(peer.namespaceSelector)
    : 'own namespace';
  return isEmpty(peer.podSelector) ? namespaces : `${namespaces}[${describeSelector(peer.podSelector!)}]`;
}

function describePort(pod: PodTemplate, port: NetworkPolicyPort): string {
  const number = port.port === undefined ? 'any port' : portNumber(pod.spec.containers[0]!, port.port);
  return `${number}/${port.protocol ?? 'TCP'}`;
}

function policyTypes(policy: NetworkPolicy): string[] {
  return policy.spec.policyTypes ?? ['Ingress', ...(policy.spec.egress ? ['Egress'] : [])];
}

/**
 * The traffic the policies allow a pod, one "<peer>:<port>/<protocol>" per peer and port: where
 * it may connect to (Egress) or be connected from (Ingress). Empty when it is isolated and no rule allows any.
 */
export function allowedTraffic(policies: readonly NetworkPolicy[], pod: PodTemplate, direction: 'Ingress' | 'Egress'): string[] {
  const allowed = new Set<string>();
  for (const policy of policies) {
    if (!selects(policy.spec.podSelector, pod.metadata.labels) || !policyTypes(policy).includes(direction)) continue;
    const rules =
      direction === 'Ingress'
        ? (policy.spec.ingress ?? []).map((rule) => ({ peers: rule.from, ports: rule.ports }))
        : (policy.spec.egress ?? []).map((rule) => ({ peers: rule.to, ports: rule.ports }));
    for (const { peers, ports } of rules) {
      const peerNames = peers?.length ? peers.map(describePeer) : ['anywhere'];
      const portNames = ports?.length ? ports.map((port) => describePort(pod, port)) : ['any port'];
      for (const peer of peerNames) for (const port of portNames) allowed.add(`${peer}:${port}`);
    }
  }
  return [...allowed].sort();
}

/** Whether a policy isolates every pod of the namespace both ways and allows nothing by itself. */
export function isDefaultDeny(policy: NetworkPolicy): boolean {
  const types = policyTypes(policy);
  return (
    isEmpty(policy.spec.podSelector) &&
    types.includes('Ingress') &&
    types.includes('Egress') &&
    !policy.spec.ingress?.length &&
    !policy.spec.egress?.length
  );
}
