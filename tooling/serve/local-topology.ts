import { join } from 'node:path';
import { REMOTES, type RemoteName } from '../remotes';

export const REPO_ROOT = join(__dirname, '..', '..');

/** A port for every app. */
export type Topology = Record<'host' | 'api' | RemoteName, number>;

/** Where each app is served locally: the README's ports. */
export const LOCAL_PORTS: Topology = {
  host: 3000,
  api: 3004,
  ...(Object.fromEntries(REMOTES.map((remote) => [remote.name, remote.localPort])) as Record<RemoteName, number>),
};
