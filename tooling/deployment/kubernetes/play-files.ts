/**
 * `node --import tsx tooling/deployment/kubernetes/play-files.ts <dir> <first-port>`: prepares the development
 * overlay's output (deploy/kubernetes/rendered/development.yaml) for `podman kube play`
 * (tooling/deployment/kubernetes/play.sh), writing into <dir>:
 * - <deployment>.yaml: each Deployment with the claims it mounts, and <deployment>.aliases: the
 *   names its Services give it on a cluster (short and fully qualified), which the play gives the
 *   pods as network aliases, since Podman ignores Services;
 * - <name>.configmap.yaml: each ConfigMap (passed with --configmap), with the development origins
 *   (localhost:3000-3003, through `kubectl port-forward`) swapped for the play's published ports
 *   (and the gate runner's forwards of them),
 *   and the sign-up limits raised as the compose stack's tests raise them;
 * - <secret>.json: each Secret's data as `podman secret create` takes it for secretKeyRef;
 * - order: the Deployments, dependencies first (but the object store after the remotes);
 * - ports.env: SG_<NAME>_PORT, the published port of each published Deployment.
 * Published Deployments (the host, the remotes and the object store) get a hostPort and one replica (two would
 * collide on the port); the others declare no port (Podman would publish it); the API keeps its
 * two replicas. Everything else is the overlay's own.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { readRemoteList } from '../../remotes/read-remote-list';
import type { KubeObject } from './manifests';

const [dir = '', firstPort = ''] = process.argv.slice(2);
const base = Number(firstPort);
if (!dir || !Number.isInteger(base)) throw new Error('usage: play-files.ts <dir> <first-port>');
mkdirSync(dir, { recursive: true });

const objects = parseAllDocuments(
  readFileSync(join(__dirname, '..', '..', '..', 'deploy', 'kubernetes', 'rendered', 'development.yaml'), 'utf8'),
).map((document) => document.toJS() as KubeObject & Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any -- objects read from YAML
const remotes = readRemoteList();
// The published port of each Deployment: the host first, then each remote by its local port.
// The object store's stand-in too, as `kubectl port-forward svc/s3` publishes it for a team's
// release tool (docs/kubernetes.md), on the compose stack's offset (base + 9).
const published: Record<string, number> = {
  host: base,
  ...Object.fromEntries(remotes.map((remote) => [remote.name, base + remote.localPort - 3000])),
  s3: base + 9,
};
const swapOrigins = (value: string) =>
  value.replace(
    /http:\/\/localhost:(30\d\d)\b/g,
    (_match, port: string) => `http://localhost:${base + Number(port) - 3000}`,
  );

// One file per ConfigMap: Podman 4.3 reads the first document of a --configmap file only.
for (const map of objects.filter((object) => object.kind === 'ConfigMap')) {
  const data = Object.entries(map.data as Record<string, string>).map(([key, value]) => [
    key,
    // The tests sign up far more often than one person would (as in tooling/containers/stack.sh).
    /^SIGN_UPS?_(RATE_)?PER_MINUTE$/.test(key)
      ? '600000'
      : key === 'GATE_LOCAL_FORWARDS'
        ? // The gate runner's forwards listen on the origins' ports: the play's, as the origins are.
          value.replace(
            /(^|\s)(30\d\d)=/g,
            (_match, space: string, port: string) => `${space}${base + Number(port) - 3000}=`,
          )
        : swapOrigins(value),
  ]);
  writeFileSync(
    join(dir, `${map.metadata.name}.configmap.yaml`),
    stringify({ ...map, data: Object.fromEntries(data) }),
  );
}
for (const secret of objects.filter((object) => object.kind === 'Secret')) {
  const data = Object.fromEntries(
    Object.entries(secret.stringData as Record<string, string>).map(([key, value]) => [
      key,
      Buffer.from(value).toString('base64'),
    ]),
  );
  writeFileSync(join(dir, `${secret.metadata.name}.json`), JSON.stringify(data));
}

const namespace = objects.find((object) => object.kind === 'Namespace')?.metadata.name ?? 'default';
const order: string[] = [];
const deployments = objects.filter((object) => object.kind === 'Deployment');
// The database first, the API next, the remotes, the object store after them (the remotes must
// start before its name exists, as they may on a cluster), the host last (it proxies to all of them).
const RANKS: Record<string, number> = { postgres: 0, api: 1, s3: 3, host: 4 };
const rank = (name: string) => RANKS[name] ?? 2;
for (const deployment of deployments.sort((a, b) => rank(a.metadata.name) - rank(b.metadata.name))) {
  const name = deployment.metadata.name;
  const labels = deployment.spec.template.metadata.labels as Record<string, string>;
  const services = objects.filter(
    (object) =>
      object.kind === 'Service' &&
      Object.entries(object.spec.selector as Record<string, string>).every(([key, value]) => labels[key] === value),
  );
  const aliases = services.flatMap((service) => [
    service.metadata.name,
    `${service.metadata.name}.${namespace}.svc.cluster.local`,
  ]);
  const claims = (deployment.spec.template.spec.volumes as { persistentVolumeClaim?: { claimName: string } }[])
    .map((volume) => volume.persistentVolumeClaim?.claimName)
    .filter(Boolean);
  const copy = structuredClone(deployment);
  // The images stack.sh built, under another tag if SG_KUBE_IMAGE_TAG names one.
  for (const container of copy.spec.template.spec.containers as { image: string }[])
    container.image = container.image.replace(
      /^(special-gift\/[a-z0-9-]+):latest$/,
      `$1:${process.env.SG_KUBE_IMAGE_TAG ?? 'latest'}`,
    );
  // The PostgreSQL stand-in's postgres user is not the official image's 999 (docs/containers.md).
  if (name === 'postgres' && process.env.SG_PLAY_POSTGRES_UID) {
    const uid = Number(process.env.SG_PLAY_POSTGRES_UID);
    Object.assign(copy.spec.template.spec.securityContext, { runAsUser: uid, runAsGroup: uid, fsGroup: uid });
  }
  if (name in published) {
    copy.spec.replicas = 1;
    copy.spec.template.spec.containers[0].ports[0].hostPort = published[name];
  } else {
    // Podman 4.3 publishes a containerPort without a hostPort on the machine's same port (on a
    // cluster it only names the port): the unpublished pods declare none.
    for (const container of copy.spec.template.spec.containers) delete container.ports;
  }
  const files = [
    ...objects.filter((object) => object.kind === 'PersistentVolumeClaim' && claims.includes(object.metadata.name)),
    copy,
  ];
  writeFileSync(join(dir, `${name}.yaml`), files.map((object) => stringify(object)).join('---\n'));
  writeFileSync(join(dir, `${name}.aliases`), aliases.length > 0 ? `${aliases.join('\n')}\n` : '');
  order.push(name);
}
writeFileSync(join(dir, 'order'), order.join('\n') + '\n');
// SG_<NAME>_PORT for the tests, as tooling/containers/stack.sh names the compose stack's.
writeFileSync(
  join(dir, 'ports.env'),
  Object.entries(published)
    .map(([name, port]) => `export SG_${name.toUpperCase()}_PORT=${port}\n`)
    .join(''),
);
console.log(`${order.length} Deployments to play: ${order.join(', ')}; published ${JSON.stringify(published)}`);
