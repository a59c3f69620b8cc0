/**
 * Everything that names the remotes, derived from the one list (tooling/remotes/remotes.json): each
 * entry is a file of the repo and its content for a given list. `npm run generate` writes them;
 * `derived-files.test.ts` fails while one is stale, and derives them all from a list with a
 * fourth remote.
 */
import { renderCompositionMaps } from '../composition/render-nginx';
import { DEPLOY_FILES, renderDeployFile } from './render-deploy';
import type { RemoteEntry } from '../remotes/read-remote-list';

type Derive = (remotes: readonly RemoteEntry[]) => string;

const header = (comment: string) =>
  `${comment} Generated from tooling/remotes/remotes.json by \`npm run generate\`: do not edit.`;
const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The host's runtime list: the remotes it registers, their routes (each screen's path). */
const hostRemotes: Derive = (remotes) =>
  [
    header('//'),
    '',
    '/** Each remote the host routes to: its name (federation name and texts namespace) and its route. */',
    'export const REMOTES = [',
    ...remotes.map((remote) => `  { name: ${quote(remote.name)}, route: ${quote(remote.route)} },`),
    '] as const;',
    '',
  ].join('\n');

/** The same list for tooling, the browser suite and the benchmark (folder and local port too). */
const toolingRemotes: Derive = (remotes) =>
  [
    header('//'),
    '',
    'export const REMOTE_LIST = [',
    ...remotes.map(
      (remote) =>
        `  { name: ${quote(remote.name)}, dir: ${quote(remote.dir)}, localPort: ${remote.localPort}, route: ${quote(remote.route)} },`,
    ),
    '] as const;',
    '',
  ].join('\n');

/**
 * The benchmark's monolith imports every screen directly; webpack needs each import spelled out.
 * Each screen's chunk sits where a same-origin remote's remoteEntry.js would be, so the host's
 * nginx config applies to both builds unchanged.
 */
const monolithScreens: Derive = (remotes) =>
  [
    header('//'),
    '',
    'export const SCREENS: Record<string, () => Promise<unknown>> = {',
    ...remotes.map(
      (remote) =>
        `  ${quote(`${remote.name}/Screen`)}: () => import(/* webpackChunkName: "remotes/${remote.name}/remoteEntry" */ '../../${remote.dir}/src/exposed-screen'),`,
    ),
    '};',
    '',
  ].join('\n');

export const DERIVED_FILES: Readonly<Record<string, Derive>> = {
  'host/src/config/remotes.generated.ts': hostRemotes,
  'tooling/remotes/remotes.generated.ts': toolingRemotes,
  'bench/monolith/screens.generated.ts': monolithScreens,
  // nginx's route map (the rest of the composition snippets names no remote).
  'deploy/nginx/snippets/composition.conf': renderCompositionMaps,
  // Marked regions of hand-written files: the host's nginx template, the start-up script, the
  // compose services, the Dockerfiles' workspace manifests (tooling/deployment/render-deploy.ts).
  ...Object.fromEntries(
    Object.keys(DEPLOY_FILES).map((file) => [
      file,
      (remotes: readonly RemoteEntry[]) => renderDeployFile(file as keyof typeof DEPLOY_FILES, remotes),
    ]),
  ),
};
