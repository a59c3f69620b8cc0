import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { boot } from './app/bootstrap';
import { showStartupFailure } from './features/startup/startup-failure';

const root = document.getElementById('root') as HTMLElement;

function start(): void {
  // index.html preloads config.json, so this usually finds it already on its way.
  const configResponse = fetch('/config.json', { headers: { Accept: 'application/json' } });
  // The host provides its shared libraries eagerly (see tooling/webpack/shared-dependencies.ts), so
  // the shell is in this one chunk and needs no async boundary before it starts.
  boot(root, configResponse, { registerRemotes, loadRemote }).catch((error: unknown) => {
    // The old app only logged start-up failures; keep the log and also tell the user.
    console.error('Special Gift failed to start', error);
    showStartupFailure(root, start);
  });
}

start();
