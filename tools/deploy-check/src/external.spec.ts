import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { ofKind } from './kubernetes-objects.js';
import { DEPLOY, rendered } from './manifests.js';
import { NAMESPACES, OVERLAYS } from './platform.js';

interface NatsValues {
  config: {
    cluster: { enabled: boolean; replicas: number };
    jetstream: { enabled: boolean; fileStore: { enabled: boolean; pvc: { enabled: boolean } } };
  };
}

interface PostgresCluster {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: { instances: number; bootstrap: { initdb: { database: string; owner: string } } };
}

const BASE = await rendered('base');

function readYaml<T>(file: string): T {
  return YAML.parse(readFileSync(join(DEPLOY, 'external', file), 'utf8')) as T;
}

/** KEY=value lines of an env file, without comments and blank lines. */
function readEnvFile(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('the NATS example values', () => {
  const values = readYaml<NatsValues>('nats-values.yaml');

  it('turn JetStream on with file storage on a persistent volume', () => {
    expect(values.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true, pvc: { enabled: true } } });
  });

  it('run a cluster of three servers', () => {
    expect(values.config.cluster).toEqual({ enabled: true, replicas: 3 });
  });

  it('give the address the apps connect to (release "nats" in its namespace)', () => {
    const config = ofKind(BASE, 'ConfigMap').find((map) => map.metadata.name.startsWith('signup-platform-config-'));
    const url = new URL(config!.data!.NATS_URL!);
    expect({ host: url.hostname, port: url.port }).toEqual({ host: `nats.${NAMESPACES.nats}.svc.cluster.local`, port: '4222' });
  });
});

describe('the Postgres example cluster', () => {
  const cluster = readYaml<PostgresCluster>('postgres-cluster.yaml');

  it('is a CloudNativePG cluster of three instances with one database', () => {
    expect(cluster).toMatchObject({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { namespace: NAMESPACES.postgres },
      spec: { instances: 3 },
    });
  });

  it.each(OVERLAYS)('is where the %s secrets example points DATABASE_URL: its primary, its database, its owner', (overlay) => {
    const url = new URL(readEnvFile(join(DEPLOY, 'overlays', overlay, 'secrets', 'secrets.env.example')).DATABASE_URL!);
    expect({ host: url.hostname, port: url.port, database: url.pathname.slice(1), user: url.username }).toEqual({
      host: `${cluster.metadata.name}-rw.${cluster.metadata.namespace}.svc.cluster.local`,
      port: '5432',
      database: cluster.spec.bootstrap.initdb.database,
      user: cluster.spec.bootstrap.initdb.owner,
    });
  });
});
