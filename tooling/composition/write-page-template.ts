/**
 * The host's build writes its page template (`dist/page.shtml`) from the built index.html, and
 * names the telemetry collector in both, and the hash of its one script (`dist/page-script-hash.txt`): run from host/ after webpack. nginx (the image) and the Node server (`npm run up`) compose pages from it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@special-gift/shared';
import {
  PAGE_SCRIPT_HASH_FILE,
  PAGE_TEMPLATE_FILE,
  pageScriptHash,
  toPageTemplate,
  withCollector,
} from './composition';

const dist = join(process.cwd(), 'dist');
const onlyOne = (name: string) => {
  const files = readdirSync(dist).filter((file) => new RegExp(`^${name}\\.[0-9a-f]+\\.js$`).test(file));
  if (files.length !== 1) throw new Error(`dist/ must hold one ${name}.<hash>.js, found ${files.length}`);
  return `/${files[0]}`;
};
// The page names its telemetry collector, which the app loads after the first screen.
const index = withCollector(readFileSync(join(dist, 'index.html'), 'utf8'), onlyOne('collector'));
writeFileSync(join(dist, 'index.html'), index);
const template = toPageTemplate(index, CONTRACT_VERSION, onlyOne('page-loader'));
writeFileSync(join(dist, PAGE_TEMPLATE_FILE), template);
// The page's CSP names its script by hash: nginx reads it at start (15-runtime-config.envsh).
writeFileSync(join(dist, PAGE_SCRIPT_HASH_FILE), `${pageScriptHash(template)}\n`);
console.log(`wrote dist/${PAGE_TEMPLATE_FILE} and dist/${PAGE_SCRIPT_HASH_FILE}`);
