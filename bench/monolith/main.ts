/**
 * The benchmark's baseline: the same host shell and the same three screens in ONE build, no
 * federation runtime and nothing shared: screens are plain lazy chunks, like a classic SPA.
 * Only `npm run bench` builds it; it is never deployed.
 */
import { start } from '../../host/src/app/start';
import type { FederationRuntime } from '../../host/src/services/remotes/remote-screens';

// webpack needs each import spelled out, so the screens are named here (tooling/remotes.json is
// the list everywhere else). Each screen's chunk sits where the federated build's remoteEntry.js
// would be for a same-origin remote (/remotes/<name>/remoteEntry.js, see webpack.config.ts), so the
// host's nginx config (config.json entries, the first screen's preload hint) applies to both
// variants unchanged.
const screens: Record<string, () => Promise<unknown>> = {
  'intro/Screen': () => import(/* webpackChunkName: "remotes/intro/remoteEntry" */ '../../remote-intro/src/exposed-screen'),
  'signup/Screen': () => import(/* webpackChunkName: "remotes/signup/remoteEntry" */ '../../remote-signup/src/exposed-screen'),
  'thankyou/Screen': () => import(/* webpackChunkName: "remotes/thankyou/remoteEntry" */ '../../remote-thankyou/src/exposed-screen'),
};

const localScreens: FederationRuntime = {
  registerRemotes: () => undefined,
  loadRemote: <T,>(id: string) => (screens[id]?.() ?? Promise.resolve(null)) as Promise<T | null>,
};

start(document.getElementById('root') as HTMLElement, localScreens);
