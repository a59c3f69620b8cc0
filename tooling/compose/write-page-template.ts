/**
 * The host's build writes its page template (`dist/page.shtml`) from the built index.html: run from
 * host/ after webpack. nginx (the image) and the Node server (`npm run up`) compose pages from it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@special-gift/shared';
import { PAGE_TEMPLATE_FILE, toPageTemplate } from './composition';

const dist = join(process.cwd(), 'dist');
const loaders = readdirSync(dist).filter((file) => /^page-loader\.[0-9a-f]+\.js$/.test(file));
if (loaders.length !== 1) throw new Error(`dist/ must hold one page-loader.<hash>.js, found ${loaders.length}`);
writeFileSync(
  join(dist, PAGE_TEMPLATE_FILE),
  toPageTemplate(readFileSync(join(dist, 'index.html'), 'utf8'), CONTRACT_VERSION, `/${loaders[0]}`),
);
console.log(`wrote dist/${PAGE_TEMPLATE_FILE}`);
