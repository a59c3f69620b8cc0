import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parseAllDocuments } from 'yaml';
import { readRemoteList, type RemoteEntry } from '../../remotes/read-remote-list';
import { kubernetesFiles, readProductionDigests, renderOverlay } from './kustomize-layout';
import { API_DRAIN, apiDrainSeconds, environments, NGINX_DRAIN, type KubeObject } from './manifests';

const root = join(__dirname, '..', '..', '..');

/** The models of the Kubernetes API (kubernetes-models 4.5.1: Kubernetes 1.33) by apiVersion and kind. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

const remotes = readRemoteList();
const envs = environments(remotes, readProductionDigests());
const overlays = {
  development: renderOverlay(remotes, envs.development),
  production: renderOverlay(remotes, envs.production),
};
const find = (objects: KubeObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as KubeObject & { spec: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- a YAML object read in a test
};
const pod = (deployment: { spec: Record<string, any> }) => deployment.spec.template.spec; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above

describe('the Kubernetes manifests (deploy/kubernetes)', () => {
  it.each(Object.keys(kubernetesFiles(remotes)))('%s is what the generator writes (run `npm run generate`)', (path) => {
    expect(readFileSync(join(root, path), 'utf8')).toBe(kubernetesFiles(remotes)[path]);
  });

  describe.each(Object.entries(overlays))('the %s overlay', (_name, objects) => {
    it.each(objects.map((object) => [`${object.kind} ${object.metadata.name}`, object] as const))(
      '%s is valid for Kubernetes 1.33',
      (_label, object) => {
        const Model = MODELS[`${object.apiVersion}/${object.kind}`];
        if (!Model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
        expect(() => new Model(object as never).validate()).not.toThrow();
      },
    );

    it('has a Deployment and a Service per remote, the host, and the API with its budget and autoscaler', () => {
      for (const name of [...remotes.map((remote) => remote.name), 'host', 'api']) {
        find(objects, 'Deployment', name);
        find(objects, 'Service', name);
      }
      expect(find(objects, 'PodDisruptionBudget', 'api').spec.maxUnavailable).toBe(1);
      expect(find(objects, 'HorizontalPodAutoscaler', 'api').spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(find(objects, 'Deployment', 'api').spec.replicas).toBeGreaterThanOrEqual(2);
    });

    it('every container runs as a non-root user, on a read-only root, without capabilities, sized, probed', () => {
      for (const deployment of objects.filter((object) => object.kind === 'Deployment')) {
        const spec = pod(find(objects, 'Deployment', deployment.metadata.name));
        expect(spec.securityContext.runAsNonRoot).toBe(true);
        expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
        for (const container of spec.containers) {
          expect(container.securityContext).toMatchObject({
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          });
          expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
          expect(container.resources.limits.memory).toEqual(expect.any(String));
          expect(container.readinessProbe).toBeDefined();
          // Every writable path is a volume of the pod.
          const volumes = new Set(spec.volumes.map((volume: { name: string }) => volume.name));
          for (const mount of container.volumeMounts) expect(volumes).toContain(mount.name);
        }
      }
    });

    it('rolls one new pod in before an old one goes, and drains for as long as the API and nginx take', () => {
      for (const name of [...remotes.map((remote) => remote.name), 'host', 'api'])
        expect(find(objects, 'Deployment', name).spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      const api = pod(find(objects, 'Deployment', 'api'));
      const env = Object.fromEntries(
        api.containers[0].env.map((entry: { name: string; value?: string }) => [entry.name, entry.value]),
      );
      expect(Number(env.SHUTDOWN_DELAY_MS)).toBe(API_DRAIN.shutdownDelayMs);
      expect(Number(env.SHUTDOWN_GRACE_MS)).toBe(API_DRAIN.shutdownGraceMs);
      expect(api.containers[0].lifecycle.preStop.exec.command).toEqual(['sleep', String(API_DRAIN.preStopSeconds)]);
      expect(api.terminationGracePeriodSeconds).toBeGreaterThan(apiDrainSeconds());
      expect(api.containers[0].readinessProbe.httpGet.path).toBe('/v1/ready');
      expect(api.containers[0].livenessProbe.httpGet.path).toBe('/v1/health');
      const host = pod(find(objects, 'Deployment', 'host'));
      expect(host.terminationGracePeriodSeconds).toBeGreaterThan(
        NGINX_DRAIN.preStopSeconds + NGINX_DRAIN.apiReadTimeoutSeconds,
      );
      // The proxy's read timeout the host's grace period is sized for.
      expect(readFileSync(join(root, 'deploy/nginx/snippets/api-proxy.conf'), 'utf8')).toContain(
        `proxy_read_timeout ${NGINX_DRAIN.apiReadTimeoutSeconds}s;`,
      );
      expect(api.topologySpreadConstraints.map((c: { topologyKey: string }) => c.topologyKey)).toEqual([
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
      ]);
    });

    it('the API Service is headless: the host nginx sees each ready replica and can retry on another', () => {
      expect(find(objects, 'Service', 'api').spec.clusterIP).toBe('None');
    });

    it('the Ingress routes the public origin to the host and each remote origin to its remote', () => {
      const rules = find(objects, 'Ingress', 'special-gift').spec.rules as {
        host: string;
        http: { paths: { backend: { service: { name: string } } }[] };
      }[];
      expect(rules.map((rule) => rule.http.paths[0]?.backend.service.name)).toEqual([
        'host',
        ...remotes.map((remote) => remote.name),
      ]);
    });
  });

  it('production: every image by digest, no Secret or database in the manifests (external services)', () => {
    const images = overlays.production
      .filter((object) => object.kind === 'Deployment')
      .flatMap((deployment) => pod(find(overlays.production, 'Deployment', deployment.metadata.name)).containers)
      .map((container: { image: string }) => container.image);
    // Each remote's, the host's, the API's, the API's image again as the host's state agent, the gate runner's.
    expect(images).toHaveLength(remotes.length + 4);
    for (const image of images)
      expect(image).toMatch(/^registry\.special-gift\.example\/special-gift\/[a-z-]+@sha256:[0-9a-f]{64}$/);
    expect(overlays.production.filter((object) => ['Secret', 'PersistentVolumeClaim'].includes(object.kind))).toEqual(
      [],
    );
    expect(overlays.production.map((object) => object.metadata.name)).not.toContain('postgres');
  });

  it('development: the PostgreSQL stand-in on a claim, and the Secret the API reads', () => {
    find(overlays.development, 'Deployment', 'postgres');
    find(overlays.development, 'PersistentVolumeClaim', 'sg-postgres-data');
    expect(Object.keys(find(overlays.development, 'Secret', 'sg-api-secrets').stringData as object)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'OPERATOR_TOKEN', 'PAGE_TOKEN_KEY']),
    );
  });

  it("development: the object store's stand-in on a claim, each remote's BUILDS_ORIGIN at its bucket, the release tool's keys", () => {
    const s3 = pod(find(overlays.development, 'Deployment', 's3'));
    expect(s3.containers[0].image).toBe('special-gift/s3-stand-in:latest');
    expect(s3.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'sg-s3-data' } });
    find(overlays.development, 'PersistentVolumeClaim', 'sg-s3-data');
    expect(find(overlays.development, 'Service', 's3').spec.ports[0].port).toBe(4568);
    const config = find(overlays.development, 'ConfigMap', 'sg-remote-config').data as Record<string, string>;
    for (const remote of remotes)
      expect(config[`BUILDS_ORIGIN_${remote.name.toUpperCase()}`]).toBe(
        `http://s3.special-gift-dev.svc.cluster.local:4568/sg-builds/builds/${remote.name}`,
      );
    expect(Object.keys(find(overlays.development, 'Secret', 'sg-s3-credentials').stringData as object)).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
    ]);
    expect(overlays.production.map((object) => object.metadata.name)).not.toContain('s3');
  });

  it('a model rejects an invalid object (the validation can fail)', () => {
    const broken = structuredClone(find(overlays.production, 'Deployment', 'api'));
    pod(broken).containers[0].ports[0].containerPort = 'not a port';
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });

  it('with a fourth remote, each overlay has its Deployment, Service and Ingress rule', () => {
    const rewards: RemoteEntry = { name: 'rewards', dir: 'remote-rewards', localPort: 3005, route: '/rewards' };
    const four = [...remotes, rewards];
    const digests = { ...readProductionDigests(), 'special-gift/remote-rewards': `sha256:${'a'.repeat(64)}` };
    for (const env of Object.values(environments(four, digests))) {
      const objects = renderOverlay(four, env);
      find(objects, 'Deployment', 'rewards');
      find(objects, 'Service', 'rewards');
      expect(JSON.stringify(find(objects, 'Ingress', 'special-gift'))).toContain('"name":"rewards"');
      expect(find(objects, 'ConfigMap', 'sg-host-config').data).toHaveProperty('REMOTE_REWARDS_URL');
    }
    expect(() => environments(four, readProductionDigests())).toThrow(/remote-rewards.*sha256 digest/);
    // The YAML parses back to the same objects.
    const text = kubernetesFiles(four, digests)['deploy/kubernetes/rendered/production.yaml'] ?? '';
    expect(parseAllDocuments(text).length).toBe(renderOverlay(four, environments(four, digests).production).length);
  });
});
