import list from './remotes.json';

/**
 * The remotes, in one place for every tool (serving, the browser suite, the benchmark; lint and
 * Jest read remotes.json itself): name (the federation name and texts namespace), folder, local
 * port and the route it renders. The host keeps its own runtime list (host/src/config), and a host
 * test checks that both agree.
 */
export type RemoteName = 'intro' | 'signup' | 'thankyou';

export interface RemoteApp {
  readonly name: RemoteName;
  readonly dir: string;
  /** Its port under `npm run serve` (the host is on 3000, the API on 3004). */
  readonly localPort: number;
  readonly route: string;
}

export const REMOTES: readonly RemoteApp[] = list as RemoteApp[];
export const REMOTE_NAMES: readonly RemoteName[] = REMOTES.map((remote) => remote.name);
