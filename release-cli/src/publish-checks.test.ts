import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { computeBuild } from './build-id';
import { buildFootprint } from './footprint';
import { checkDist, Refusal } from './integrity';
import { readOrCreateOperatorToken } from './operator-token';
import { writeDistFile, writeMinimalDist } from './test-dist';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sg-release-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (relative: string, content?: string) => writeDistFile(root, relative, content);
const minimalDist = () => writeMinimalDist(root);

describe('publishing checks', () => {
  it('accepts a complete build and reads its contract major', () => {
    expect(checkDist(minimalDist()).contractMajor).toBe(1);
  });

  it("reads a build's footprint from its manifest: entry, first screen (entry + exposed sync JS and CSS), shared versions", () => {
    const dist = minimalDist();
    write('remoteEntry.js', 'e'.repeat(1000));
    write('screen.1.js', 's'.repeat(300));
    write('screen.1.css', 'c'.repeat(20));
    write('lazy.1.js', 'l'.repeat(5000));
    write('react.1.js', 'r'.repeat(7000));
    const { manifest } = checkDist(dist);
    const shared = [
      { name: 'react', version: '19.3.1', assets: {} },
      { name: '@special-gift/shared', version: '1.0.0', assets: {} },
      { name: 'unversioned', assets: {} },
    ];
    // Lazy chunks and the shared libraries' own chunks (the host provides those) are not the first screen.
    expect(buildFootprint(dist, { ...manifest, shared })).toEqual({
      entryBytes: 1000,
      firstScreenBytes: 1320,
      sharedVersions: { react: '19.3.1', '@special-gift/shared': '1.0.0' },
    });
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

  it('creates the operator token once, readable by its owner only, then reads it back', () => {
    const token = readOrCreateOperatorToken(root);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(root, '.data', 'operator-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateOperatorToken(root)).toBe(token);
  });
});
