import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';

/**
 * A copy of a remote's built `dist` in a new temporary folder, with `code` appended to its
 * remoteEntry.js: another build id with the same screen, no build run. The caller removes it.
 */
export function distWithAppendedEntry(dist: string, code: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-build-'));
  cpSync(dist, dir, { recursive: true });
  appendFileSync(join(dir, 'remoteEntry.js'), code);
  return dir;
}

/**
 * Builds a changed copy of a remote, as its team would after editing it: the remote's folder is
 * copied beside the real one (so `../tooling` and node_modules resolve), `edit` changes it, and
 * the production build runs there. Returns the new `dist`.
 */
export function buildRemoteVariant(remoteDir: string, name: string, edit: (dir: string) => void): string {
  const dir = join(REPO_ROOT, `.e2e-variant-${name}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(REPO_ROOT, remoteDir), dir, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules)([\\/]|$)/.test(source.slice(REPO_ROOT.length)),
  });
  edit(dir);
  execFileSync(
    join(REPO_ROOT, 'node_modules', '.bin', 'webpack'),
    ['--mode', 'production', '-c', join(dir, 'webpack.config.ts')],
    { cwd: dir, stdio: 'pipe' },
  );
  // The rest of the remote's build: its prerendered screen (see the remote's package.json). tsx
  // takes JSX options only for files its tsconfig includes: this copy's sources among them.
  const prerender = join(REPO_ROOT, 'tooling', 'build', 'prerender');
  writeFileSync(
    join(dir, 'tsconfig.prerender.json'),
    JSON.stringify({
      extends: join(prerender, 'tsconfig.json'),
      include: [join(dir, 'src'), join(REPO_ROOT, 'shared', 'src'), prerender, join(REPO_ROOT, 'tooling', 'remotes')],
    }),
  );
  execFileSync(
    process.execPath,
    ['--require', join(prerender, 'ignore-styles.cjs'), '--import', 'tsx', join(prerender, 'prerender-remote.ts')],
    {
      cwd: dir,
      stdio: 'pipe',
      env: { ...process.env, TSX_TSCONFIG_PATH: join(dir, 'tsconfig.prerender.json') },
    },
  );
  return join(dir, 'dist');
}

export function removeRemoteVariant(name: string): void {
  rmSync(join(REPO_ROOT, `.e2e-variant-${name}`), { recursive: true, force: true });
}

/** Changes one English text of a remote copy. */
export function setEnglishText(dir: string, key: string, text: string): void {
  const file = join(dir, 'public', 'assets', 'i18n', 'en.json');
  const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  texts[key] = text;
  writeFileSync(file, JSON.stringify(texts, null, 2));
}
