/**
 * `npm run generate`: rewrites every generated file: those derived from tooling/remotes.json
 * (derived-files.ts) and nginx's composition snippets (tooling/compose/render-nginx.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NGINX_SNIPPETS } from '../compose/render-nginx';
import { DERIVED_FILES } from './derived-files';
import { readRemoteList } from './read-remote-list';

const root = join(__dirname, '..', '..');
const write = (path: string, text: string) => {
  writeFileSync(join(root, path), text);
  console.log(`wrote ${path}`);
};

const remotes = readRemoteList();
for (const [path, derive] of Object.entries(DERIVED_FILES)) write(path, derive(remotes));
for (const [file, render] of Object.entries(NGINX_SNIPPETS)) {
  const path = join('deploy', 'nginx', 'snippets', file);
  if (!(path in DERIVED_FILES)) write(path, render());
}
