import '@special-gift/shared/styles.css';
import { CONTRACT_VERSION, type ShellApi } from '@special-gift/shared';
import { createHttpClient, createOverlayController } from '@special-gift/shared/host';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { readRuntimeConfig, remoteTextsBase } from '../config/runtime-config';
import { createRemoteScreens, type FederationRuntime } from '../services/remotes/remote-screens';

import { createI18n } from '../services/i18n/create-i18n';
import { besidePrerenderedScreen, createPrerenderedScreens, takePrerenderedScreen } from '../services/prerender/prerendered-screen';
import { createNavigation } from '../services/navigation/create-navigation';
import { yieldToBrowser } from '../services/scheduling/timing';
import { App } from './app';
import { createAppRouter } from './create-app-router';
import { schedulePreload } from './schedule-preload';
import { remoteForPath } from './screens';

/**
 * Starts the app: config, then the services, then the first screen. The first route's remote
 * starts loading as soon as the config is known, in parallel with storage and translations.
 * `runtime` loads the screens: the federation runtime in production (see main.ts); the
 * benchmark's monolith baseline passes one that imports them directly.
 */
export async function boot(root: HTMLElement, configResponse: Promise<Response>, runtime: FederationRuntime): Promise<void> {
  const config = await readRuntimeConfig(configResponse);

  const firstRemote = remoteForPath(window.location.pathname);
  const pageScreen = takePrerenderedScreen(root, firstRemote ?? undefined);
  // Storage (localforage does much of its set-up as it is evaluated) in a task of its own: the
  // start-up is several short tasks, not one long one. Same bundle, no request.
  const storageReady = yieldToBrowser()
    .then(() => import(/* webpackMode: "eager" */ '../services/storage/create-storage'))
    .then(({ createStorage }) => createStorage());
  const i18nReady = storageReady.then((storage) =>
    createI18n({
      storage,
      defaultLanguage: config.defaultLanguage,
      // The first screen's texts come with the host's, not a round trip later.
      namespaces: firstRemote ? { [firstRemote]: remoteTextsBase(config.remotes[firstRemote]) } : {},
    }),
  );
  const remoteScreens = createRemoteScreens({
    runtime,
    entries: config.remotes,
    loadTexts: async (namespace, entryUrl, { fresh }) => (await i18nReady).loadNamespace(namespace, remoteTextsBase(entryUrl), { fresh }),
  });
  // Failures surface on the route's own error screen; here they only must not be unhandled.
  if (firstRemote) remoteScreens.load(firstRemote).catch(() => undefined);

  const [storage, i18n] = await Promise.all([storageReady, i18nReady]);
  const router = createAppRouter();
  const navigation = createNavigation(router);
  const overlays = createOverlayController();
  // The API sets the XSRF cookie on any answer; `health` is its cheapest.
  const http = createHttpClient({ baseUrl: config.apiBase, xsrfPrimePath: 'health' });
  const shell: ShellApi = {
    contractVersion: CONTRACT_VERSION,
    config: { apiBase: config.apiBase, cardScanBase: config.cardScanBase, siteBase: config.siteBase, defaultLanguage: config.defaultLanguage },
    navigation,
    i18n,
    storage,
    overlays,
    http,
  };

  const adopted = pageScreen?.language === i18n.current() ? pageScreen : undefined;
  const appRoot = createRoot(adopted ? besidePrerenderedScreen(root) : root, {
    // React recovered by re-rendering; log what had failed so it can be found and fixed.
    onRecoverableError: (error, info) => console.error('[react] recovered from', (error as { cause?: unknown }).cause ?? error, info.componentStack),
  });
  const app = (
    <StrictMode>
      <App
        shell={shell}
        i18n={i18n.instance}
        router={router}
        services={{
          remoteScreens,
          // Hydrated only in the language the app starts in (a stored choice the page's cookie did not carry yet renders on the client).
          prerendered: createPrerenderedScreens(adopted),
          screenContext: { shell, i18n: i18n.instance },
          navigation,
          overlays,
          swipeBackEnabled: config.swipeBackEnabled,
          onFirstScreenRendered: schedulePreload(async () => {
            // Observable marker for tests: the first screen's code runs (a prerendered one shows before).
            document.documentElement.dataset.interactive = 'true';
            await remoteScreens.preloadAll();
            // Observable marker for tests and the benchmark: every remote's code and texts are in.
            document.documentElement.dataset.preloaded = 'true';
          }),
        }}
      />
    </StrictMode>
  );
  // With the screen already on show, the shell renders around it as a transition, in slices of a
  // few milliseconds rather than one long task; without one, the screen is what the user waits
  // for and renders at once.
  if (adopted) startTransition(() => appRoot.render(app));
  else appRoot.render(app);
}
