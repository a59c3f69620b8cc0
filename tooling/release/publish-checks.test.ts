import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { computeBuild } from './build-id';
import { checkDist, Refusal } from './integrity';
import { readOrCreateOperatorToken } from './operator-token';
import { storeBuild } from './store';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sg-release-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, content = relative): void {
  const file = path.join(root, 'dist', relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** The smallest dist that passes: a manifest naming an entry, an exposed chunk and a shared one. */
function minimalDist(): string {
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

describe('publishing checks', () => {
  it('accepts a complete build and reads its contract major', () => {
    expect(checkDist(minimalDist())).toEqual({ contractMajor: 1 });
  });

  it('refuses a build missing a file its manifest names, naming the file', () => {
    const dist = minimalDist();
    rmSync(path.join(dist, 'lazy.1.js'));
    expect(() => checkDist(dist)).toThrow(Refusal);
    expect(() => checkDist(dist)).toThrow(/lazy\.1\.js is missing/);
  });

  it('refuses a build without its texts or prerendered screens, or with two contract majors', () => {
    const dist = minimalDist();
    rmSync(path.join(dist, 'assets/i18n/ar.json'));
    expect(() => checkDist(dist)).toThrow(/ar\.json is missing/);
    write('assets/i18n/ar.json', '{}');
    write('prerender/v2/en.html');
    expect(() => checkDist(dist)).toThrow(/exactly one v<N> folder.*v1, v2|exactly one v<N> folder.*v2, v1/);
  });

  it('names a build by its content: same files, same id; source maps do not count', () => {
    const dist = minimalDist();
    const first = computeBuild(dist);
    expect(first.buildId).toMatch(/^[0-9a-f]{12}$/);
    expect(first.files.map((file) => file.path)).not.toContain('remoteEntry.js.map');
    write('remoteEntry.js.map', 'another map');
    expect(computeBuild(dist).buildId).toBe(first.buildId);
    write('lazy.1.js', 'changed');
    expect(computeBuild(dist).buildId).not.toBe(first.buildId);
  });

  it('stores a build once, whole, without its source maps', () => {
    const dist = minimalDist();
    const { buildId } = computeBuild(dist);
    const store = path.join(root, 'store');
    expect(storeBuild(store, 'signup', buildId, dist)).toBe(true);
    expect(storeBuild(store, 'signup', buildId, dist)).toBe(false);
    expect(readFileSync(path.join(store, 'signup', buildId, 'prerender/v1/fr.html'), 'utf8')).toBe(
      'prerender/v1/fr.html',
    );
    expect(() => statSync(path.join(store, 'signup', buildId, 'remoteEntry.js.map'))).toThrow();
    expect(computeBuild(path.join(store, 'signup', buildId)).buildId).toBe(buildId);
  });

  it('refuses to store a dist whose content no longer matches the id', () => {
    const dist = minimalDist();
    expect(() => storeBuild(path.join(root, 'store'), 'signup', '000000000000', dist)).toThrow(/changed while/);
  });

  it('creates the operator token once, readable by its owner only, then reads it back', () => {
    const token = readOrCreateOperatorToken(root);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(root, '.data', 'operator-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateOperatorToken(root)).toBe(token);
  });
});
