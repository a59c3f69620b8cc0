/**
 * The files of deploy/kubernetes (written by `npm run generate`): the kustomize base, the two
 * overlays, and each overlay's output rendered here the way kustomize renders it (namespace and
 * images set on every object), so that tests validate exactly what `kubectl apply -k` applies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RemoteEntry } from '../../remotes/read-remote-list';
import {
  baseFiles,
  configMaps,
  developmentStandIns,
  environments,
  ingress,
  type Environment,
  type KubeObject,
  type KustomizeImage,
} from './manifests';

export const KUBERNETES_DIR = 'deploy/kubernetes';
const PRODUCTION_IMAGES = join(__dirname, 'production-images.json');

/** The production images' digests (tooling/deployment/kubernetes/production-images.json), by image name. */
export const readProductionDigests = (): Record<string, string> =>
  JSON.parse(readFileSync(PRODUCTION_IMAGES, 'utf8')) as Record<string, string>;

const HEADER =
  '# Generated from tooling/remotes/remotes.json by `npm run generate`: do not edit. See docs/kubernetes.md.\n';
const yamlDocuments = (objects: readonly unknown[]) =>
  HEADER + objects.map((object) => stringify(object, { lineWidth: 0 })).join('---\n');

/** The objects an overlay adds to the base, by file. */
function overlayFiles(remotes: readonly RemoteEntry[], env: Environment): Record<string, KubeObject[]> {
  return {
    'namespace.yaml': [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: env.namespace } }],
    'config.yaml': configMaps(remotes, env),
    'ingress.yaml': [ingress(remotes, env)],
    ...(env.name === 'development' ? { 'stand-ins.yaml': developmentStandIns(env) } : {}),
  };
}

const kustomization = (fields: Record<string, unknown>) => ({
  apiVersion: 'kustomize.config.k8s.io/v1beta1',
  kind: 'Kustomization',
  ...fields,
});

/** A container image as kustomize's `images` rewrites it. */
export function rewriteImage(image: string, images: readonly KustomizeImage[]): string {
  const name = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  const entry = images.find((candidate) => candidate.name === name);
  if (!entry) return image;
  if (entry.digest) return `${entry.newName ?? name}@${entry.digest}`;
  return `${entry.newName ?? name}${entry.newTag ? `:${entry.newTag}` : ''}`;
}

/** The overlay as kustomize builds it: the base and the overlay's objects, in the namespace, images set. */
export function renderOverlay(remotes: readonly RemoteEntry[], env: Environment): KubeObject[] {
  const objects = [...Object.values(baseFiles(remotes)), ...Object.values(overlayFiles(remotes, env))].flat();
  return objects.map((object) => {
    const copy = structuredClone(object);
    if (copy.kind === 'Namespace') copy.metadata.name = env.namespace;
    else copy.metadata.namespace = env.namespace;
    const pod = (copy.spec as { template?: { spec?: { containers?: { image: string }[] } } } | undefined)?.template
      ?.spec;
    for (const container of pod?.containers ?? []) container.image = rewriteImage(container.image, env.images);
    return copy;
  });
}

/** Every file under deploy/kubernetes, by path from the repo root. */
export function kubernetesFiles(
  remotes: readonly RemoteEntry[],
  productionDigests = readProductionDigests(),
): Record<string, string> {
  const base = baseFiles(remotes);
  const files: Record<string, string> = {
    [`${KUBERNETES_DIR}/base/kustomization.yaml`]:
      HEADER + stringify(kustomization({ resources: Object.keys(base) }), { lineWidth: 0 }),
  };
  for (const [file, objects] of Object.entries(base)) files[`${KUBERNETES_DIR}/base/${file}`] = yamlDocuments(objects);
  for (const env of Object.values(environments(remotes, productionDigests))) {
    const dir = `${KUBERNETES_DIR}/overlays/${env.name}`;
    const own = overlayFiles(remotes, env);
    files[`${dir}/kustomization.yaml`] =
      HEADER +
      stringify(
        kustomization({
          namespace: env.namespace,
          // `bases` (deprecated, still read by kustomize 5) so that Debian's kubectl 1.20 (kustomize
          // 2.0.3, which reads only files under `resources`) builds the overlays too.
          bases: ['../../base'],
          resources: Object.keys(own),
          images: env.images,
        }),
        { lineWidth: 0 },
      );
    for (const [file, objects] of Object.entries(own)) files[`${dir}/${file}`] = yamlDocuments(objects);
    files[`${KUBERNETES_DIR}/rendered/${env.name}.yaml`] = yamlDocuments(renderOverlay(remotes, env));
  }
  return files;
}
