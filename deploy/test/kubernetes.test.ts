import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { KUBERNETES_DIR, readManifests, validateManifests, type Manifest } from './manifests';
import { containerAddress, podman, PORTAL_IMAGE, ready, request, waitFor, WORK } from './podman';

const manifests = readManifests();
const find = (kind: string, name: string) => {
  const m = manifests.find((r) => r.kind === kind && r.metadata.name === name);
  if (!m) throw new Error(`no ${kind}/${name} in deploy/kubernetes`);
  return m;
};
const deployment = find('Deployment', 'portal');
const podSpec = deployment.spec.template.spec;
const container = podSpec.containers[0];

describe('the Kubernetes manifests', () => {
  it('are all valid resources of the Kubernetes API, with no unknown field', async () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'Deployment/portal',
        'Service/portal',
        'Service/portal-console',
        'PodDisruptionBudget/portal',
        'ConfigMap/portal-config',
        'Secret/portal-secrets',
      ]),
    );
    expect(await validateManifests(manifests, (i) => `${manifests[i]!.file} #${i}`)).toEqual([]);
  });

  it('catch a typo (the check itself works)', async () => {
    const typo = structuredClone(deployment) as Manifest;
    typo.spec.template.spec.containers[0].readinesProbe = typo.spec.template.spec.containers[0].readinessProbe;
    const problems = await validateManifests([typo]);
    expect(problems.join('\n')).toContain('readinesProbe');
    const wrongType = structuredClone(deployment) as Manifest;
    wrongType.spec.replicas = 'two';
    expect((await validateManifests([wrongType])).join('\n')).toContain('replicas');
  });

  it('hold together: kustomization lists what exists, selectors, ports and references match', () => {
    const kustomization = parse(readFileSync(path.join(KUBERNETES_DIR, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
      images: { name: string }[];
    };
    const files = new Set(manifests.map((m) => m.file));
    for (const r of kustomization.resources) expect(files, r).toContain(r);
    expect(kustomization.images.map((i) => i.name)).toContain(container.image);

    const labels = deployment.spec.template.metadata.labels as Record<string, string>;
    const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
    expect(selects(find('PodDisruptionBudget', 'portal').spec.selector.matchLabels)).toBe(true);
    const portNames = (container.ports as { name: string }[]).map((p) => p.name);
    for (const name of ['portal', 'portal-console']) {
      const service = find('Service', name);
      expect(selects(service.spec.selector)).toBe(true);
      for (const p of service.spec.ports) expect(portNames).toContain(p.targetPort);
    }
    expect(find('Service', 'portal').spec.ports[0].targetPort).toBe('http');
    expect(find('Service', 'portal-console').spec.ports[0].targetPort).toBe('console');
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
      expect(portNames).toContain(container[probe].httpGet.port);
    expect(container.readinessProbe.httpGet.path).toBe('/api/health/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/api/health/live');
    expect(container.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    for (const ref of container.envFrom) {
      if (ref.configMapRef) find('ConfigMap', ref.configMapRef.name);
      if (ref.secretRef) find('Secret', ref.secretRef.name);
    }
    for (const v of podSpec.volumes)
      if (v.persistentVolumeClaim) find('PersistentVolumeClaim', v.persistentVolumeClaim.claimName);
    // The grace period covers the preStop pause and the server's own 10 s.
    expect(podSpec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(5 + 10 + 5);
    // Every setting every replica must share is in the Secret.
    expect(Object.keys(find('Secret', 'portal-secrets').stringData)).toEqual(
      expect.arrayContaining(['SESSION_SECRET', 'DOWNLOAD_SECRET', 'LICENSE_SIGNING_KEY', 'DATABASE_URL', 'REDIS_URL']),
    );
  });
});

/**
 * The Deployment's pod, as written, played by podman (`podman kube play`) against a PostgreSQL and
 * a Redis on a network of the test's own: its security context (non-root, read-only root file
 * system), volumes and ports hold. Only what podman cannot take from a cluster is replaced: the
 * image (the local build), the ConfigMap and Secret (their values inlined), the releases claim (a
 * podman volume of the same name).
 */
describe.sequential("the Deployment's pod under podman kube play", () => {
  const id = randomBytes(3).toString('hex');
  const network = `portalkt${id}`;
  const pg = `${network}-postgres`;
  const redis = `${network}-redis`;
  const podName = `${network}-portal`;
  let url: string;

  beforeAll(async () => {
    await podman(['network', 'create', network]);
    const password = randomBytes(12).toString('hex');
    await podman([
      ...['run', '-d', '--pull=never', '--name', pg, '--network', network],
      ...['-e', 'POSTGRES_USER=portal', '-e', 'POSTGRES_DB=portal', '-e', `POSTGRES_PASSWORD=${password}`, 'postgres:17'],
    ]);
    await podman(['run', '-d', '--pull=never', '--name', redis, '--network', network, 'redis:7']);
    const config = find('ConfigMap', 'portal-config').data as Record<string, string>;
    const secrets: Record<string, string> = {
      DATABASE_URL: `postgres://portal:${password}@${pg}:5432/portal`,
      REDIS_URL: `redis://${redis}:6379/0`,
      SESSION_SECRET: randomBytes(32).toString('base64'),
      DOWNLOAD_SECRET: randomBytes(32).toString('base64'),
      LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const spec = structuredClone(podSpec);
    const c = spec.containers[0];
    c.image = PORTAL_IMAGE;
    c.imagePullPolicy = 'Never';
    c.env = [...Object.entries({ ...config, ...secrets }).map(([name, value]) => ({ name, value })), ...c.env];
    delete c.envFrom;
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: podName, labels: deployment.spec.template.metadata.labels },
      spec,
    };
    const file = path.join(WORK, `${podName}.yaml`);
    writeFileSync(file, stringify(pod));
    // Postgres first: the server exits when the database does not answer at start-up.
    await waitFor('PostgreSQL', async () =>
      (await podman(['exec', pg, 'pg_isready', '-h', '127.0.0.1', '-U', 'portal', '-d', 'portal'], { check: false })).code === 0
        ? true
        : undefined,
    );
    await podman(['kube', 'play', '--network', network, file]);
    url = `http://${await containerAddress(`${podName}-portal`)}:3000`;
    await ready(`${url}/api/health/ready`);
  });

  afterAll(async () => {
    await podman(['pod', 'rm', '-f', '-t', '0', podName], { check: false });
    await podman(['rm', '-f', '-v', '-t', '0', pg, redis], { check: false });
    await podman(['volume', 'rm', '-f', 'portal-releases'], { check: false });
    await podman(['network', 'rm', '-f', network], { check: false });
  });

  it('serves as the non-root user on a read-only root file system, on PostgreSQL', async () => {
    const ctr = `${podName}-portal`;
    expect((await podman(['exec', ctr, 'id', '-u'])).stdout.trim()).toBe('1000');
    expect((await podman(['exec', ctr, 'sh', '-c', 'touch /app/x 2>&1; echo $?'])).stdout).toMatch(/Read-only file system/);
    expect((await podman(['exec', ctr, 'sh', '-c', 'touch /data/x /tmp/x && echo ok'])).stdout.trim()).toBe('ok');
    expect((await request(`${url}/api/health/live`)).status).toBe(200);
    expect((await request(`http://${await containerAddress(ctr)}:3001/`)).status).toBe(200);
    const logs = (await podman(['logs', ctr])).stdout;
    expect(logs).toContain('PostgreSQL');
  });

  it('stops within its termination grace period on SIGTERM, exiting 0', async () => {
    const ctr = `${podName}-portal`;
    const started = Date.now();
    await podman(['stop', '-t', String(podSpec.terminationGracePeriodSeconds), ctr]);
    const state = JSON.parse((await podman(['inspect', '--format', '{{ json .State }}', ctr])).stdout) as { ExitCode: number };
    expect(state.ExitCode).toBe(0);
    expect((Date.now() - started) / 1000).toBeLessThan(podSpec.terminationGracePeriodSeconds);
  });
});
