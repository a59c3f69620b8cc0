/**
 * The stack as Kubernetes objects (docs/kubernetes.md), derived from tooling/remotes/remotes.json like the
 * compose file: a kustomize base (one Deployment and Service per remote, the host, the API with its
 * PodDisruptionBudget and HorizontalPodAutoscaler) and two overlays (development: the stand-ins for
 * PostgreSQL, a Secret and local origins; production: external services, images by digest). The
 * overlays' output is rendered here too (what `kubectl kustomize` prints), so the unit tests
 * validate the exact objects a cluster receives, and `tooling/deployment/kubernetes/check-kustomize.sh` checks
 * that kustomize itself prints the same.
 */
import type { RemoteEntry } from '../../remotes/read-remote-list';

/** A Kubernetes object as written to YAML. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** The Kubernetes version the objects are written and validated for (kubernetes-models 4.5.1). */
export const KUBERNETES_VERSION = '1.33';

const PART_OF = 'special-gift';
const STATIC_PORT = 8080;
const API_PORT = 3004;
/** The host's state agent (docs/releases.md, "The state agent"): a sidecar of each host pod, on loopback. */
const STATE_AGENT_PORT = 3010;
/** The gate runner's `GET /health` (gate-runner/src/health.ts; the image's GATE_HEALTH_PORT). */
const GATE_RUNNER_HEALTH_PORT = 3020;

/**
 * The API's drain (api/src/main.ts), and the pod's timings that must agree with it: the kubelet
 * runs preStop first (the endpoints controller and every proxy drop the pod meanwhile), then sends
 * SIGTERM; the API fails readiness for SHUTDOWN_DELAY_MS, closes its listener and lets requests
 * finish for up to SHUTDOWN_GRACE_MS, then closes the database (at most 5 s).
 */
export const API_DRAIN = { preStopSeconds: 5, shutdownDelayMs: 2_000, shutdownGraceMs: 10_000, closeDatabaseMs: 5_000 };
/** What the API's drain takes at most, and the grace period the pod gets (with a margin before SIGKILL). */
export const apiDrainSeconds = () =>
  API_DRAIN.preStopSeconds + (API_DRAIN.shutdownDelayMs + API_DRAIN.shutdownGraceMs + API_DRAIN.closeDatabaseMs) / 1000;
const API_GRACE_SECONDS = 30;
/**
 * nginx (host and remotes) stops gracefully on SIGQUIT, the image's STOPSIGNAL: it finishes the
 * requests in flight. The host's longest is an API call (proxy_read_timeout 30 s in
 * deploy/nginx/snippets/api-proxy.conf); a remote serves files only.
 */
export const NGINX_DRAIN = {
  preStopSeconds: 5,
  hostGraceSeconds: 40,
  remoteGraceSeconds: 15,
  apiReadTimeoutSeconds: 30,
};

/**
 * Requests and limits from the compose stack's containers measured with `podman stats` during the
 * stack tests (docs/kubernetes.md, "Sizing"): requests near the busiest sample, memory limits with
 * room for a burst; no CPU limit on the API (throttling a Node process stalls its event loop,
 * which fails readiness under load), a CPU limit on nginx (it never nears it).
 */
export const RESOURCES = {
  api: { requests: { cpu: '250m', memory: '128Mi' }, limits: { memory: '256Mi' } },
  host: { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
  // Not measured yet: a Node process holding one state and answering two small requests per page.
  stateAgent: { requests: { cpu: '25m', memory: '48Mi' }, limits: { memory: '128Mi' } },
  // The stack's gate-runner container (`podman stats`, 2 Dec): 53 MB idle, 465 MB at most while
  // Chromium ran the acceptance gate's two runs.
  gateRunner: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } },
  remote: { requests: { cpu: '20m', memory: '16Mi' }, limits: { cpu: '250m', memory: '64Mi' } },
  postgres: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
  // The development stand-in (s3rver): 19-30 MB, at most 7 % of a core around a publish.
  s3: { requests: { cpu: '20m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
};

/** The users the images run as (numeric: the kubelet can only verify runAsNonRoot for a number). */
const NGINX_UID = 101; // the nginx image's nginx user
const NODE_UID = 1000; // the node image's node user

/** The environment an overlay describes: its namespace and the origins browsers use. */
export interface Environment {
  readonly name: 'development' | 'production';
  readonly namespace: string;
  /** The host's public origin, and each remote's (by name). */
  readonly publicOrigin: string;
  readonly remoteOrigin: (remote: RemoteEntry) => string;
  /** The Ingress's TLS secret (production), none in development. */
  readonly tlsSecret?: string;
  readonly signUpsPerMinute: number;
  /**
   * The host's REAL_IP_FROM: where the Ingress controller's pods run. Their X-Forwarded-For names
   * the client; without it every client is the controller (one sign-up limit, one page-token network).
   */
  readonly realIpFrom?: string;
  readonly cookieSecure: boolean;
  /**
   * The public origins are this machine's `localhost` ports (`kubectl port-forward`): the gate
   * runner's pod forwards each on its own 127.0.0.1 to the Service behind it (GATE_LOCAL_FORWARDS),
   * so its Chromium opens the origins a developer's browser opens.
   */
  readonly localOrigins?: boolean;
  /**
   * The object store's base of the builds, read anonymously (each remote's BUILDS_ORIGIN is
   * <base>/<remote>, issue 27); none: the remotes serve /builds/ from their image.
   */
  readonly buildsOrigin?: string;
  /**
   * Where the API writes the release state (RELEASE_STATE_STORE, `s3://bucket/prefix`: the bucket
   * behind buildsOrigin) and the S3 endpoint when it is not AWS's; the host's state agent reads it
   * back through buildsOrigin.
   */
  readonly releaseStateStore: { readonly location: string; readonly endpoint?: string };
  /**
   * The host refuses a remote's code the page has no hash for (REQUIRE_INTEGRITY, docs/security.md):
   * in production every remote is published and released, so an unreleased one is refused.
   */
  readonly requireIntegrity: boolean;
  /** How the overlay names the images: a tag (development) or a digest per image (production). */
  readonly images: readonly KustomizeImage[];
}

export interface KustomizeImage {
  readonly name: string;
  readonly newName?: string;
  readonly newTag?: string;
  readonly digest?: string;
}

/** The images the base names: special-gift/<app>, as stack.sh and docker-compose.yml tag them. */
export const imageNames = (remotes: readonly RemoteEntry[]) => [
  'special-gift/host',
  ...remotes.map((remote) => `special-gift/${remote.dir}`),
  'special-gift/api',
  'special-gift/gate-runner',
];

/** The Service names, so every name used below is spelled once. */
export const SERVICE = {
  host: 'host',
  hostProxies: 'host-proxies',
  api: 'api',
  postgres: 'postgres',
  s3: 's3',
} as const;
export const CONFIG = {
  host: 'sg-host-config',
  remote: 'sg-remote-config',
  api: 'sg-api-config',
  gateRunner: 'sg-gate-runner-config',
} as const;
/** The gate runner's Deployment (it serves nothing: no Service). */
export const GATE_RUNNER = 'gate-runner';
export const SECRET = 'sg-api-secrets';
export const POSTGRES_CLAIM = 'sg-postgres-data';
export const S3_CLAIM = 'sg-s3-data';
/** The release tool's keys for the development object store (a team's CI job reads them). */
export const S3_SECRET = 'sg-s3-credentials';

/**
 * The object store's stand-in (development only): s3rver in the image stack.sh builds from
 * deploy/s3.Dockerfile, its port and bucket (deploy/s3/s3-server.mjs), and the keys it accepts
 * (s3rver knows one access key id and does not verify signatures: not a secret).
 */
export const S3_STAND_IN = {
  image: 'special-gift/s3-stand-in',
  port: 4568,
  bucket: 'sg-builds',
  prefix: 'builds',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
} as const;

/** A Service's name as a cluster's DNS knows it: nginx's resolver does not apply the search list. */
export const serviceHost = (service: string, env: Pick<Environment, 'namespace'>) =>
  `${service}.${env.namespace}.svc.cluster.local`;

const labels = (name: string, component: string) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/component': component,
  'app.kubernetes.io/part-of': PART_OF,
});
const selector = (name: string) => ({ 'app.kubernetes.io/name': name });

const dropEverything = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};
const podSecurity = (uid: number) => ({
  runAsNonRoot: true,
  runAsUser: uid,
  runAsGroup: uid,
  seccompProfile: { type: 'RuntimeDefault' },
});
const emptyDirs = (mounts: Record<string, string>, sizeLimit = '64Mi') => ({
  volumes: Object.keys(mounts).map((name) => ({ name, emptyDir: { sizeLimit } })),
  volumeMounts: Object.entries(mounts).map(([name, mountPath]) => ({ name, mountPath })),
});
const httpGet = (path: string, port: string | number = 'http') => ({ httpGet: { path, port } });
const sleepPreStop = (seconds: number) => ({ preStop: { exec: { command: ['sleep', String(seconds)] } } });
const rollOneAtATime = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };

/**
 * nginx's writable paths with a read-only root: the rendered config (conf.d), the host's runtime
 * config.json (CONFIG_JSON_ROOT), its pid file (/var/run), its cache and temp files, /tmp.
 */
const nginxWritable = (kind: 'host' | 'remote') =>
  emptyDirs({
    'nginx-conf': '/etc/nginx/conf.d',
    'nginx-cache': '/var/cache/nginx',
    'nginx-run': '/var/run',
    tmp: '/tmp',
    ...(kind === 'host' ? { 'runtime-config': '/srv/runtime-config' } : {}),
  });

function staticApp(
  name: string,
  image: string,
  kind: 'host' | 'remote',
  env: Record<string, unknown>[],
  probePath: string,
  replicas: number,
  sidecars: readonly Record<string, unknown>[] = [],
): KubeObject {
  const writable = nginxWritable(kind);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: labels(name, kind) },
    spec: {
      replicas,
      revisionHistoryLimit: 5,
      selector: { matchLabels: selector(name) },
      strategy: rollOneAtATime,
      template: {
        metadata: { labels: labels(name, kind) },
        spec: {
          automountServiceAccountToken: false,
          securityContext: podSecurity(NGINX_UID),
          terminationGracePeriodSeconds:
            kind === 'host' ? NGINX_DRAIN.hostGraceSeconds : NGINX_DRAIN.remoteGraceSeconds,
          containers: [
            {
              name: 'nginx',
              image,
              imagePullPolicy: 'IfNotPresent',
              ports: [{ name: 'http', containerPort: STATIC_PORT }],
              envFrom: [{ configMapRef: { name: kind === 'host' ? CONFIG.host : CONFIG.remote } }],
              env,
              readinessProbe: { ...httpGet(probePath), periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 2 },
              livenessProbe: { ...httpGet(probePath), periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 2 },
              lifecycle: sleepPreStop(NGINX_DRAIN.preStopSeconds),
              resources: kind === 'host' ? RESOURCES.host : RESOURCES.remote,
              securityContext: dropEverything,
              volumeMounts: writable.volumeMounts,
            },
            ...sidecars,
          ],
          volumes: writable.volumes,
        },
      },
    },
  };
}

const service = (name: string, port: number, targetPort: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: { 'app.kubernetes.io/part-of': PART_OF } },
  spec: { selector: selector(extra.for ? String(extra.for) : name), ports: [{ name: 'http', port, targetPort }] },
});

/** The key of sg-remote-config that holds a remote's BUILDS_ORIGIN. */
const buildsKey = (remote: RemoteEntry) => `BUILDS_ORIGIN_${remote.name.toUpperCase()}`;

function remoteObjects(remote: RemoteEntry): KubeObject[] {
  return [
    staticApp(
      remote.name,
      `special-gift/${remote.dir}`,
      'remote',
      // This remote's builds in object storage (issue 27's S3 build store), when the environment
      // names one; without it the remote serves /builds/ from its image's folder.
      [
        {
          name: 'BUILDS_ORIGIN',
          valueFrom: { configMapKeyRef: { name: CONFIG.remote, key: buildsKey(remote), optional: true } },
        },
      ],
      '/remoteEntry.js',
      2,
    ),
    service(remote.name, STATIC_PORT, 'http'),
  ];
}

/**
 * The state agent beside the host's nginx (docs/releases.md, "The state agent"): the API's image,
 * another command, on 127.0.0.1 only (no DNS, no Service). It reads the release state from the
 * bucket anonymously and checks it with the keys the API signs with (RELEASE_STATE_KEYS, or the
 * one derived from OPERATOR_TOKEN). nginx signs the pages' tokens itself; the agent holds
 * PAGE_TOKEN_KEY for its own token endpoint, the API's, which nginx no longer asks.
 * It stops after nginx has drained: nginx asks it for every page's snapshot until then.
 */
function stateAgentSidecar(): Record<string, unknown> {
  const fromSecret = (key: string) => ({
    name: key,
    valueFrom: { secretKeyRef: { name: SECRET, key, optional: true } },
  });
  return {
    name: 'state-agent',
    image: 'special-gift/api',
    imagePullPolicy: 'IfNotPresent',
    command: ['node', 'dist/state-agent.js'],
    ports: [{ name: 'state', containerPort: STATE_AGENT_PORT }],
    env: [
      { name: 'PORT', value: String(STATE_AGENT_PORT) },
      { name: 'HOST', value: '127.0.0.1' },
      // The pod's /tmp lives as long as the pod: a restarted agent starts from the state kept
      // there (checked again) if the bucket is down then.
      { name: 'RELEASE_STATE_CACHE_FILE', value: '/tmp/sg-release-state.json' },
      {
        name: 'RELEASE_STATE_BASE_URL',
        valueFrom: { configMapKeyRef: { name: CONFIG.host, key: 'RELEASE_STATE_BASE_URL' } },
      },
      {
        name: 'RELEASE_ENVIRONMENT',
        valueFrom: { configMapKeyRef: { name: CONFIG.api, key: 'RELEASE_ENVIRONMENT' } },
      },
      fromSecret('OPERATOR_TOKEN'),
      fromSecret('RELEASE_STATE_KEYS'),
      fromSecret('PAGE_TOKEN_KEY'),
    ],
    // Ready once it has read the store once (a state, nothing released, or the reason it could not).
    readinessProbe: { ...httpGet('/ready', 'state'), periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 2 },
    livenessProbe: { ...httpGet('/health', 'state'), periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 2 },
    lifecycle: sleepPreStop(NGINX_DRAIN.hostGraceSeconds - 5),
    resources: RESOURCES.stateAgent,
    securityContext: { ...dropEverything, runAsUser: NODE_UID, runAsGroup: NODE_UID },
    // Its one file (the kept state) in the pod's /tmp.
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
}

function hostObjects(): KubeObject[] {
  const hostProxies = service(SERVICE.hostProxies, STATIC_PORT, 'http', { for: SERVICE.host });
  return [
    // The host's runtime config.json is written outside the (read-only) web root.
    staticApp(
      SERVICE.host,
      'special-gift/host',
      'host',
      [
        { name: 'CONFIG_JSON_ROOT', value: '/srv/runtime-config' },
        // nginx signs each page's token itself (docs/telemetry.md): the API's key and environment,
        // never the operator token. No key: pages carry no token.
        {
          name: 'PAGE_TOKEN_KEY',
          valueFrom: { secretKeyRef: { name: SECRET, key: 'PAGE_TOKEN_KEY', optional: true } },
        },
        {
          name: 'RELEASE_ENVIRONMENT',
          valueFrom: { configMapKeyRef: { name: CONFIG.api, key: 'RELEASE_ENVIRONMENT' } },
        },
      ],
      '/index.html',
      2,
      [stateAgentSidecar()],
    ),
    service(SERVICE.host, STATIC_PORT, 'http'),
    // Headless: the host pods' own addresses, which the API resolves to believe their X-Forwarded-For.
    { ...hostProxies, spec: { ...(hostProxies.spec as object), clusterIP: 'None' } },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: SERVICE.host, labels: labels(SERVICE.host, 'host') },
      spec: { maxUnavailable: 1, selector: { matchLabels: selector(SERVICE.host) } },
    },
  ];
}

function apiObjects(): KubeObject[] {
  const writable = emptyDirs({ tmp: '/tmp' });
  const secret = (key: string, optional: boolean) => ({
    name: key,
    valueFrom: { secretKeyRef: { name: SECRET, key, optional } },
  });
  const s3Key = (key: string) => ({ name: key, valueFrom: { secretKeyRef: { name: S3_SECRET, key, optional: true } } });
  const api = SERVICE.api;
  const apiService = service(api, API_PORT, 'http');
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: api, labels: labels(api, 'api') },
      spec: {
        replicas: 2,
        revisionHistoryLimit: 5,
        selector: { matchLabels: selector(api) },
        strategy: rollOneAtATime,
        template: {
          metadata: { labels: labels(api, 'api') },
          spec: {
            automountServiceAccountToken: false,
            securityContext: podSecurity(NODE_UID),
            terminationGracePeriodSeconds: API_GRACE_SECONDS,
            // Replicas on different nodes (a drained node takes one) and, where there are zones, zones.
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: selector(api) },
                matchLabelKeys: ['pod-template-hash'],
              },
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: selector(api) },
                matchLabelKeys: ['pod-template-hash'],
              },
            ],
            containers: [
              {
                name: 'api',
                image: 'special-gift/api',
                imagePullPolicy: 'IfNotPresent',
                ports: [{ name: 'http', containerPort: API_PORT }],
                envFrom: [{ configMapRef: { name: CONFIG.api } }],
                env: [
                  { name: 'PORT', value: String(API_PORT) },
                  { name: 'SHUTDOWN_DELAY_MS', value: String(API_DRAIN.shutdownDelayMs) },
                  { name: 'SHUTDOWN_GRACE_MS', value: String(API_DRAIN.shutdownGraceMs) },
                  secret('DATABASE_URL', false),
                  // Unset: releases and the field report are off (docs/releases.md).
                  secret('OPERATOR_TOKEN', true),
                  secret('RELEASE_STATE_KEYS', true),
                  secret('PAGE_TOKEN_KEY', true),
                  // Unset: rollouts wait at their gates, saying so (docs/rollouts.md).
                  secret('GATE_RUNNER_TOKEN', true),
                  // The release state's writes (RELEASE_STATE_STORE): the stand-in's keys in
                  // development; in production none here, the platform's credentials for the pod.
                  s3Key('AWS_ACCESS_KEY_ID'),
                  s3Key('AWS_SECRET_ACCESS_KEY'),
                ],
                // Migrations run at start: up to a minute before it answers at all.
                startupProbe: { ...httpGet('/v1/health'), periodSeconds: 2, failureThreshold: 30, timeoutSeconds: 2 },
                readinessProbe: { ...httpGet('/v1/ready'), periodSeconds: 2, failureThreshold: 1, timeoutSeconds: 2 },
                livenessProbe: { ...httpGet('/v1/health'), periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 2 },
                lifecycle: sleepPreStop(API_DRAIN.preStopSeconds),
                resources: RESOURCES.api,
                securityContext: dropEverything,
                volumeMounts: writable.volumeMounts,
              },
            ],
            volumes: writable.volumes,
          },
        },
      },
    },
    // Headless: the host's nginx resolves every ready replica (not one virtual IP), spreads requests
    // over them and retries a failed one on another (proxy_next_upstream).
    { ...apiService, spec: { ...(apiService.spec as object), clusterIP: 'None' } },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: api, labels: labels(api, 'api') },
      spec: { maxUnavailable: 1, selector: { matchLabels: selector(api) } },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: api, labels: labels(api, 'api') },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: api },
        minReplicas: 2,
        maxReplicas: 6,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        ],
        // Down slowly: a short lull does not take away the replicas the next burst needs.
        behavior: {
          scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
        },
      },
    },
  ];
}

/**
 * The rollouts' gate runner (docs/rollouts.md, "The gate runner"): a Deployment that polls the API
 * for gate jobs and runs each in headless Chromium against the live host at its public origin, as a
 * user's browser opens it. A poller rather than a Job per gate: a Job per gate would need the API to
 * create Jobs, that is rights on the cluster's API, which it has none of. Two runners would be safe
 * (each gate is claimed with a nonce), one is enough: a gate waits while none runs, never skipped.
 */
function gateRunnerObjects(): KubeObject[] {
  const name = GATE_RUNNER;
  // Chromium writes its profile and crash reports under $HOME and /tmp (the root is read-only),
  // and its shared memory too (--disable-dev-shm-usage): room for a page's, as for its memory.
  const writable = emptyDirs({ tmp: '/tmp', home: '/home/node' }, '512Mi');
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, labels: labels(name, 'gate-runner') },
      spec: {
        replicas: 1,
        revisionHistoryLimit: 5,
        selector: { matchLabels: selector(name) },
        strategy: rollOneAtATime,
        template: {
          metadata: { labels: labels(name, 'gate-runner') },
          spec: {
            automountServiceAccountToken: false,
            securityContext: podSecurity(NODE_UID),
            // A gate cut short is not answered: its claim lapses and another run takes it.
            terminationGracePeriodSeconds: 10,
            containers: [
              {
                name,
                image: 'special-gift/gate-runner',
                imagePullPolicy: 'IfNotPresent',
                ports: [{ name: 'health', containerPort: GATE_RUNNER_HEALTH_PORT }],
                envFrom: [{ configMapRef: { name: CONFIG.gateRunner } }],
                env: [
                  { name: 'GATE_HEALTH_PORT', value: String(GATE_RUNNER_HEALTH_PORT) },
                  // Required: without its credential it cannot claim a gate, and its pod does not
                  // start (CreateContainerConfigError, naming the key) until the Secret has it.
                  {
                    name: 'GATE_RUNNER_TOKEN',
                    valueFrom: { secretKeyRef: { name: SECRET, key: 'GATE_RUNNER_TOKEN' } },
                  },
                ],
                // Ready (so a roll of this Deployment goes on) once it has polled the API; 503 while
                // it has not reached the API for a minute, restarted after three more checks.
                readinessProbe: {
                  ...httpGet('/health', 'health'),
                  periodSeconds: 5,
                  failureThreshold: 1,
                  timeoutSeconds: 2,
                },
                livenessProbe: {
                  ...httpGet('/health', 'health'),
                  initialDelaySeconds: 30,
                  periodSeconds: 30,
                  failureThreshold: 3,
                  timeoutSeconds: 2,
                },
                resources: RESOURCES.gateRunner,
                securityContext: dropEverything,
                volumeMounts: writable.volumeMounts,
              },
            ],
            volumes: writable.volumes,
          },
        },
      },
    },
  ];
}

/** The base: what every environment runs, by the remotes list. One file per component. */
export function baseFiles(remotes: readonly RemoteEntry[]): Record<string, KubeObject[]> {
  return {
    'host.yaml': hostObjects(),
    ...Object.fromEntries(remotes.map((remote) => [`${remote.name}.yaml`, remoteObjects(remote)])),
    'api.yaml': apiObjects(),
    'gate-runner.yaml': gateRunnerObjects(),
  };
}

const configMap = (name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { 'app.kubernetes.io/part-of': PART_OF } },
  data,
});

/** The runtime config of an environment: one ConfigMap per kind of container. */
export function configMaps(remotes: readonly RemoteEntry[], env: Environment): KubeObject[] {
  const upper = (remote: RemoteEntry) => remote.name.toUpperCase();
  return [
    configMap(CONFIG.host, {
      API_UPSTREAM: `http://${serviceHost(SERVICE.api, env)}:${API_PORT}`,
      API_BASE: '/api/v1',
      CARD_SCAN_BASE: `${env.publicOrigin}/scan`,
      SITE_BASE: env.publicOrigin,
      DEFAULT_LANGUAGE: 'en',
      SIGN_UP_RATE_PER_MINUTE: String(env.signUpsPerMinute),
      ...(env.realIpFrom ? { REAL_IP_FROM: env.realIpFrom } : {}),
      REQUIRE_INTEGRITY: String(env.requireIntegrity),
      // The page's snapshot from the pod's state agent, which reads the bucket (its token: nginx's own).
      RELEASE_STATE_UPSTREAM: `http://127.0.0.1:${STATE_AGENT_PORT}`,
      ...(env.buildsOrigin ? { RELEASE_STATE_BASE_URL: env.buildsOrigin } : {}),
      ...Object.fromEntries(
        remotes.flatMap((remote) => [
          [`REMOTE_${upper(remote)}_URL`, `${env.remoteOrigin(remote)}/remoteEntry.js`],
          // The Service's port is the container's: the same URL reaches a pod directly (podman play).
          [`REMOTE_${upper(remote)}_FRAGMENT_BASE`, `http://${serviceHost(remote.name, env)}:${STATIC_PORT}`],
        ]),
      ),
    }),
    configMap(CONFIG.remote, {
      HOST_ORIGIN: env.publicOrigin,
      ...(env.buildsOrigin
        ? Object.fromEntries(remotes.map((remote) => [buildsKey(remote), `${env.buildsOrigin}/${remote.name}`]))
        : {}),
    }),
    configMap(CONFIG.api, {
      PUBLIC_ORIGIN: env.publicOrigin,
      COOKIE_SECURE: String(env.cookieSecure),
      TRUSTED_PROXIES: serviceHost(SERVICE.hostProxies, env),
      SIGN_UPS_PER_MINUTE: String(env.signUpsPerMinute),
      DATABASE_POOL_SIZE: '10',
      RELEASE_ENVIRONMENT: env.name,
      RELEASE_STATE_STORE: env.releaseStateStore.location,
      AWS_REGION: 'us-east-1',
      ...(env.releaseStateStore.endpoint ? { AWS_ENDPOINT_URL_S3: env.releaseStateStore.endpoint } : {}),
      // The live host whose build-info.json a rollout's contract gate reads: its Service.
      ROLLOUT_HOST_URL: `http://${serviceHost(SERVICE.host, env)}:${STATIC_PORT}`,
    }),
    configMap(CONFIG.gateRunner, {
      // Every API replica (the headless Service); the host at the origin users open.
      API_URL: `http://${serviceHost(SERVICE.api, env)}:${API_PORT}`,
      GATE_HOST_URL: env.publicOrigin,
      ...(env.localOrigins
        ? {
            GATE_LOCAL_FORWARDS: [
              [env.publicOrigin, SERVICE.host] as const,
              ...remotes.map((remote) => [env.remoteOrigin(remote), remote.name] as const),
            ]
              .map(([origin, name]) => `${new URL(origin).port}=${serviceHost(name, env)}:${STATIC_PORT}`)
              .join(' '),
          }
        : {}),
    }),
  ];
}

/** The Ingress: the public origin to the host, each remote's origin to its Service. */
export function ingress(remotes: readonly RemoteEntry[], env: Environment): KubeObject {
  const hostOf = (origin: string) => new URL(origin).hostname;
  const rule = (origin: string, backend: string) => ({
    host: hostOf(origin),
    http: {
      paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: backend, port: { name: 'http' } } } }],
    },
  });
  const origins: [string, string][] = [
    [env.publicOrigin, SERVICE.host],
    ...remotes.map((remote): [string, string] => [env.remoteOrigin(remote), remote.name]),
  ];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: PART_OF, labels: { 'app.kubernetes.io/part-of': PART_OF } },
    spec: {
      ...(env.tlsSecret
        ? { tls: [{ hosts: origins.map(([origin]) => hostOf(origin)), secretName: env.tlsSecret }] }
        : {}),
      rules: origins.map(([origin, backend]) => rule(origin, backend)),
    },
  };
}

/** The development overlay's stand-ins: PostgreSQL with a claim, the Secret it and the API read, the object store. */
export function developmentStandIns(env: Environment): KubeObject[] {
  return [...postgresStandIn(env), ...s3StandIn()];
}

function postgresStandIn(env: Environment): KubeObject[] {
  const password = 'special-gift-development';
  const writable = emptyDirs({ 'postgres-run': '/var/run/postgresql', tmp: '/tmp' });
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SECRET, labels: { 'app.kubernetes.io/part-of': PART_OF } },
      type: 'Opaque',
      stringData: {
        POSTGRES_PASSWORD: password,
        DATABASE_URL: `postgres://special_gift:${password}@${serviceHost(SERVICE.postgres, env)}:5432/special_gift`,
        OPERATOR_TOKEN: 'development-operator-token-not-a-secret',
        GATE_RUNNER_TOKEN: 'development-gate-runner-token-not-a-secret',
        // The page tokens' key, shared by the host's nginx (signs), the API and the state agent.
        PAGE_TOKEN_KEY: 'development-page-token-key-not-a-secret',
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: POSTGRES_CLAIM, labels: labels(SERVICE.postgres, 'database') },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: SERVICE.postgres, labels: labels(SERVICE.postgres, 'database') },
      spec: {
        replicas: 1,
        // One pod owns the data directory: the old one stops before the new one starts.
        strategy: { type: 'Recreate' },
        selector: { matchLabels: selector(SERVICE.postgres) },
        template: {
          metadata: { labels: labels(SERVICE.postgres, 'database') },
          spec: {
            automountServiceAccountToken: false,
            securityContext: { ...podSecurity(POSTGRES_UID), fsGroup: POSTGRES_UID },
            // SIGTERM is PostgreSQL's "smart" shutdown; it is given the compose stack's 30 s.
            terminationGracePeriodSeconds: 30,
            containers: [
              {
                name: 'postgres',
                image: 'postgres:16-bookworm',
                imagePullPolicy: 'IfNotPresent',
                ports: [{ name: 'postgres', containerPort: 5432 }],
                env: [
                  { name: 'POSTGRES_USER', value: 'special_gift' },
                  { name: 'POSTGRES_DB', value: 'special_gift' },
                  // A folder in the claim, created by the server's user: the claim's root belongs to root
                  // (fsGroup makes it writable), and PostgreSQL needs a data folder it owns.
                  { name: 'PGDATA', value: '/var/lib/postgresql/data/pgdata' },
                  {
                    name: 'POSTGRES_PASSWORD',
                    valueFrom: { secretKeyRef: { name: SECRET, key: 'POSTGRES_PASSWORD' } },
                  },
                ],
                readinessProbe: {
                  exec: { command: ['pg_isready', '-U', 'special_gift', '-d', 'special_gift'] },
                  periodSeconds: 5,
                  timeoutSeconds: 3,
                },
                resources: RESOURCES.postgres,
                securityContext: dropEverything,
                volumeMounts: [...writable.volumeMounts, { name: 'data', mountPath: '/var/lib/postgresql/data' }],
              },
            ],
            volumes: [...writable.volumes, { name: 'data', persistentVolumeClaim: { claimName: POSTGRES_CLAIM } }],
          },
        },
      },
    },
    {
      ...service(SERVICE.postgres, 5432, 'postgres'),
    },
  ];
}
/** The postgres user of the PostgreSQL image (the stand-in's too). */
const POSTGRES_UID = 999;

/**
 * The object store's stand-in: one s3rver pod whose objects are on a claim, not an emptyDir, because
 * the releases that point at them live in PostgreSQL (on its claim): a restarted pod must not lose
 * builds the database still names (every page using them would fail). The release tool reaches it
 * at http://s3.<namespace>.svc.cluster.local:4568 with the keys of the Secret sg-s3-credentials;
 * the remotes read their prefix anonymously (BUILDS_ORIGIN).
 */
function s3StandIn(): KubeObject[] {
  const { image, port, bucket, accessKeyId, secretAccessKey } = S3_STAND_IN;
  const writable = emptyDirs({ tmp: '/tmp' });
  const ready = { httpGet: { path: `/${bucket}?max-keys=1`, port: 'http' } };
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: S3_SECRET, labels: { 'app.kubernetes.io/part-of': PART_OF } },
      type: 'Opaque',
      stringData: { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: S3_CLAIM, labels: labels(SERVICE.s3, 'object-store') },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: SERVICE.s3, labels: labels(SERVICE.s3, 'object-store') },
      spec: {
        replicas: 1,
        // One pod owns the objects' folder (s3rver keeps no lock): the old one stops first.
        strategy: { type: 'Recreate' },
        selector: { matchLabels: selector(SERVICE.s3) },
        template: {
          metadata: { labels: labels(SERVICE.s3, 'object-store') },
          spec: {
            automountServiceAccountToken: false,
            // fsGroup: a new claim's root belongs to root; the node user writes into it.
            securityContext: { ...podSecurity(NODE_UID), fsGroup: NODE_UID },
            terminationGracePeriodSeconds: 10,
            containers: [
              {
                name: 's3',
                image,
                imagePullPolicy: 'IfNotPresent',
                ports: [{ name: 'http', containerPort: port }],
                env: [
                  { name: 'SG_S3_PORT', value: String(port) },
                  { name: 'SG_S3_DIR', value: '/data' },
                  { name: 'SG_S3_BUCKET', value: bucket },
                ],
                readinessProbe: { ...ready, periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 2 },
                livenessProbe: { ...ready, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 2 },
                resources: RESOURCES.s3,
                securityContext: dropEverything,
                volumeMounts: [...writable.volumeMounts, { name: 'data', mountPath: '/data' }],
              },
            ],
            volumes: [...writable.volumes, { name: 'data', persistentVolumeClaim: { claimName: S3_CLAIM } }],
          },
        },
      },
    },
    service(SERVICE.s3, port, 'http'),
  ];
}

/** The environments: development (stand-ins, local origins) and production (external services). */
export function environments(remotes: readonly RemoteEntry[], productionDigests: Record<string, string>) {
  const namespace = 'special-gift-dev';
  const development: Environment = {
    name: 'development',
    namespace,
    // The local ports of `npm run up` (tooling/remotes/remotes.json), reached with `kubectl port-forward`.
    publicOrigin: 'http://localhost:3000',
    remoteOrigin: (remote) => `http://localhost:${remote.localPort}`,
    signUpsPerMinute: 600,
    cookieSecure: false,
    localOrigins: true,
    // The remotes run their images' own builds until a team releases one.
    requireIntegrity: false,
    // The stand-in's bucket (s3StandIn), by the Service's fully qualified name.
    buildsOrigin: `http://${serviceHost(SERVICE.s3, { namespace })}:${S3_STAND_IN.port}/${S3_STAND_IN.bucket}/${S3_STAND_IN.prefix}`,
    releaseStateStore: {
      location: `s3://${S3_STAND_IN.bucket}/${S3_STAND_IN.prefix}`,
      endpoint: `http://${serviceHost(SERVICE.s3, { namespace })}:${S3_STAND_IN.port}`,
    },
    images: [...imageNames(remotes), S3_STAND_IN.image].map((name) => ({ name, newTag: 'latest' })),
  };
  const production: Environment = {
    name: 'production',
    namespace: 'special-gift',
    publicOrigin: 'https://app.special-gift.example',
    remoteOrigin: (remote) => `https://${remote.name}.special-gift.example`,
    tlsSecret: 'special-gift-tls',
    signUpsPerMinute: 20,
    // The cluster's pod network, where the Ingress controller runs: set it to your cluster's.
    realIpFrom: '10.0.0.0/8',
    cookieSecure: true,
    requireIntegrity: true,
    buildsOrigin: 'https://builds.special-gift.example/builds',
    // The bucket behind buildsOrigin: set it to yours.
    releaseStateStore: { location: 's3://special-gift-builds/builds' },
    images: imageNames(remotes).map((name) => {
      const digest = productionDigests[name];
      if (!digest || !/^sha256:[0-9a-f]{64}$/.test(digest))
        throw new Error(
          `tooling/deployment/kubernetes/production-images.json: "${name}" needs a sha256 digest (got ${digest})`,
        );
      return { name, newName: `registry.special-gift.example/${name}`, digest };
    }),
  };
  return { development, production };
}
