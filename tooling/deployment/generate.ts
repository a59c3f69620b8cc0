/**
 * `npm run generate`: rewrites every generated file: those derived from tooling/remotes/remotes.json
 * (derived-files.ts), nginx's composition snippets (tooling/composition/render-nginx.ts), its
 * page-token module (tooling/composition/render-njs.ts) and the
 * Kubernetes manifests (tooling/deployment/kubernetes/kustomize-layout.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NGINX_SNIPPETS } from '../composition/render-nginx';
import { PAGE_TOKEN_MODULE_PATH, renderPageTokenModule } from '../composition/render-njs';
import { kubernetesFiles } from './kubernetes/kustomize-layout';
import { DERIVED_FILES } from './derived-files';
import { readRemoteList } from '../remotes/read-remote-list';

const root = join(__dirname, '..', '..');
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  console.log(`wrote ${path}`);
};

const remotes = readRemoteList();
for (const [path, derive] of Object.entries(DERIVED_FILES)) write(path, derive(remotes));
for (const [file, render] of Object.entries(NGINX_SNIPPETS)) {
  const path = join('deploy', 'nginx', 'snippets', file);
  if (!(path in DERIVED_FILES)) write(path, render());
}
// nginx's njs module that mints page tokens, bundled from shared's definition of them.
write(PAGE_TOKEN_MODULE_PATH, renderPageTokenModule());
// The Kubernetes manifests (docs/kubernetes.md): the kustomize base, overlays and their output.
for (const [path, text] of Object.entries(kubernetesFiles(remotes))) write(path, text);
