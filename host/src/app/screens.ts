import type { RemoteName } from '../config/runtime-config';
import { REMOTES } from '../config/remotes.generated';

/** Every screen: its path and the remote that renders it (tooling/remotes/remotes.json, generated). */
export const SCREENS: ReadonlyArray<{ path: string; remote: RemoteName }> = REMOTES.map(({ name, route }) => ({
  path: route,
  remote: name,
}));

/** Which remote serves a path, to start loading it before React renders. */
export function remoteForPath(pathname: string): RemoteName | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return SCREENS.find((screen) => screen.path === path)?.remote ?? null;
}
