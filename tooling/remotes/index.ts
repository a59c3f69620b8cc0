/**
 * The remotes, in one place: `tooling/remotes/remotes.json` (name: the federation name and texts
 * namespace; folder; local port; the route its screen renders). Lint and Jest read the JSON
 * itself; everything else that names a remote is generated from it (`npm run generate`, see
 * tooling/deployment/), this typed list included.
 */
import { REMOTE_LIST } from './remotes.generated';

export type { RemoteEntry } from './read-remote-list';
export type RemoteName = (typeof REMOTE_LIST)[number]['name'];
export type RemoteApp = (typeof REMOTE_LIST)[number];

export const REMOTES: readonly RemoteApp[] = REMOTE_LIST;
export const REMOTE_NAMES: readonly RemoteName[] = REMOTES.map((remote) => remote.name);
