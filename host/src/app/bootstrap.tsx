import '@special-gift/shared/styles.css';
import { StrictMode } from 'react';
import { readRuntimeConfig, withPageBuilds } from '../config/runtime-config';
import { adoptFirstScreen } from '../features/first-screen';
import { followReleasesOnMissingCode } from '../features/remotes/live-build';
import type { FederationRuntime } from '../services/remotes/remote-screens';
import { App } from './app';
import { createAppRouter } from './create-app-router';
import { createShellApi } from './create-shell-api';
import { loadCollector, prepareCollector } from '../services/telemetry/load-collector';
import { preloadAfterFirstScreen } from './schedule-preload';
import { startServiceWorker } from '../features/offline/register-worker';
import { startSignUpOutbox } from '../features/offline/sign-up-outbox';
import { createKeptSignUpNotice } from '../features/offline/kept-sign-up-notice';
import { HOST_NAMESPACE } from '../services/i18n/create-i18n';
import { remoteForPath } from './screens';
import { startServices } from './start-services';

/**
 * Starts the app: config, then the services, then the shell around the first screen (adopted
 * from the page when it came prerendered). `runtime` loads the screens: the federation runtime in
 * production (see main.ts); the benchmark's monolith baseline passes one that imports them.
 */
export async function boot(
  root: HTMLElement,
  configResponse: Promise<Response>,
  runtime: FederationRuntime,
): Promise<void> {
  const config = withPageBuilds(await readRuntimeConfig(configResponse));
  followReleasesOnMissingCode(config.apiBase, config.remotes);
  prepareCollector({ endpoint: `${config.apiBase}/telemetry`, entries: config.remotes });
  const firstRemote = remoteForPath(window.location.pathname);
  const { storage, i18n, remoteScreens } = await startServices(config, runtime, firstRemote);
  const router = createAppRouter();
  const { shell, navigation, overlays } = createShellApi(config, { router, storage, i18n });
  // A sign-up kept on this device while offline goes now, or when the network returns; one that
  // was refused or expired is told on whatever screen the app opens on.
  const tellUnsent = createKeptSignUpNotice({
    storage,
    overlays,
    navigation,
    t: (key) => i18n.instance.t(key, { ns: HOST_NAMESPACE }),
    signUpScreenTakesReview: () =>
      remoteScreens.load('signup').then((screen) => screen.meta.handles?.includes('kept-sign-up-review') === true),
  });
  startSignUpOutbox({ storage, http: shell.http, tellUnsent });
  const firstScreen = adoptFirstScreen(root, firstRemote, i18n.current(), { shell, i18n: i18n.instance });

  firstScreen.mountShell(
    root,
    <StrictMode>
      <App
        shell={shell}
        i18n={i18n.instance}
        router={router}
        firstScreen={firstScreen}
        services={{
          remoteScreens,
          navigation,
          overlays,
          swipeBackEnabled: config.swipeBackEnabled,
          onFirstScreenRendered: preloadAfterFirstScreen(() =>
            remoteScreens
              .preloadAll()
              .finally(loadCollector)
              .finally(() => void startServiceWorker(config.serviceWorker === true)),
          ),
        }}
      />
    </StrictMode>,
    {
      // React recovered by re-rendering; log what had failed so it can be found and fixed.
      onRecoverableError: (error, info) =>
        console.error('[react] recovered from', (error as { cause?: unknown }).cause ?? error, info.componentStack),
    },
  );
}
