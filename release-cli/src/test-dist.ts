// Test support: the smallest remote dist the release tool accepts, written into a temporary folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `<root>/dist/<relative>`. */
export function writeDistFile(root: string, relative: string, content = relative): void {
  const file = path.join(root, 'dist', relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** The smallest dist that passes: a manifest naming an entry, an exposed chunk and a shared one. */
export function writeMinimalDist(root: string): string {
  const write = (relative: string, content?: string) => writeDistFile(root, relative, content);
  write(
    'mf-manifest.json',
    JSON.stringify({
      metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } },
      exposes: [
        { assets: { js: { sync: ['screen.1.js'], async: ['lazy.1.js'] }, css: { sync: ['screen.1.css'], async: [] } } },
      ],
      shared: [{ assets: { js: { sync: ['react.1.js'], async: [] }, css: { sync: [], async: [] } } }],
    }),
  );
  for (const file of ['remoteEntry.js', 'screen.1.js', 'lazy.1.js', 'screen.1.css', 'react.1.js']) write(file);
  for (const language of ['en', 'fr', 'ar']) {
    write(`prerender/v1/${language}.html`);
    write(`assets/i18n/${language}.json`, '{}');
  }
  write('remoteEntry.js.map', 'not published');
  return path.join(root, 'dist');
}
