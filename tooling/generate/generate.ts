/** `npm run generate`: rewrites every file derived from tooling/remotes.json (see derived-files.ts). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRemoteList } from './read-remote-list';
import { DERIVED_FILES } from './derived-files';

const root = join(__dirname, '..', '..');
const remotes = readRemoteList();
for (const [path, derive] of Object.entries(DERIVED_FILES)) {
  writeFileSync(join(root, path), derive(remotes));
  console.log(`wrote ${path}`);
}
