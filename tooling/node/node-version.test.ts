import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One Node release for production and CI: the images (their `node:<major>-…` tag, the stand-in's
 * pinned binary), the scripts' runtime (use-node.sh), `engines` and `@types/node` name the same.
 */
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: __dirname, encoding: 'utf8' }).trim();
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((path) => /(\.sh|Dockerfile|\.ya?ml|\.ts)$/.test(path));

const pinned = /^SG_NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(read('tooling/node/use-node.sh'))?.[1];
const major = pinned?.split('.')[0];

it('use-node.sh pins one Node release', () => {
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
});

it('every node image the repository names is of that major line', () => {
  const tags = tracked.flatMap((path) =>
    [...read(path).matchAll(/\bnode:(\d+)-[a-z]+(?:-slim)?\b/g)].map((match) => `${path}: node:${match[1]}`),
  );
  expect(tags.length).toBeGreaterThanOrEqual(4); // the three Dockerfiles and the stand-in at least
  expect(tags.filter((tag) => !tag.endsWith(`node:${major}`))).toEqual([]);
});

it('the stand-in base image packs the very release the scripts run', () => {
  const versions = tracked.flatMap((path) =>
    [...read(path).matchAll(/^NODE_VERSION=(\S+)/gm)].map((match) => `${path}: ${match[1]}`),
  );
  expect(versions.length).toBeGreaterThanOrEqual(1);
  expect(versions.filter((version) => !version.endsWith(`: ${pinned}`))).toEqual([]);
});

it('engines and @types/node follow it', () => {
  const manifest = JSON.parse(read('package.json')) as {
    engines: { node: string };
    devDependencies: Record<string, string>;
  };
  expect(manifest.engines.node).toBe(`>=${major}`);
  expect(manifest.devDependencies['@types/node']?.split('.')[0]).toBe(major);
});

it('sourced by POSIX sh from the repository root, puts that release first on PATH', () => {
  const version = execFileSync('sh', ['-c', '. tooling/node/use-node.sh && node --version'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  }).trim();
  expect(version).toBe(`v${pinned}`);
}, 120_000);
