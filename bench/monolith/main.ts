/**
 * The benchmark's baseline: the same host shell and the same three screens in ONE build, no
 * federation runtime and nothing shared: screens are plain lazy chunks, like a classic SPA.
 * Only `npm run bench` builds it; it is never deployed.
 */
import { start } from '../../host/src/app/start';
import type { FederationRuntime } from '../../host/src/services/remotes/remote-screens';
import { SCREENS } from './screens.generated';

const localScreens: FederationRuntime = {
  registerRemotes: () => undefined,
  loadRemote: <T>(id: string) => (SCREENS[id]?.() ?? Promise.resolve(null)) as Promise<T | null>,
};

start(document.getElementById('root') as HTMLElement, localScreens);
