/**
 * The host's build writes its page template (`dist/page.shtml`) from the built index.html: run from
 * host/ after webpack. nginx (the image) and the Node server (`npm run up`) compose pages from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@special-gift/shared';
import { PAGE_TEMPLATE_FILE, toPageTemplate } from '@special-gift/shared/composition';

const dist = join(process.cwd(), 'dist');
writeFileSync(join(dist, PAGE_TEMPLATE_FILE), toPageTemplate(readFileSync(join(dist, 'index.html'), 'utf8'), CONTRACT_VERSION));
console.log(`wrote dist/${PAGE_TEMPLATE_FILE}`);
