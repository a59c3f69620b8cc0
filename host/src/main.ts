import { showStartupFailure } from './features/startup/startup-failure';

const root = document.getElementById('root') as HTMLElement;

async function start(): Promise<void> {
  // Fetch the runtime config while the app code downloads.
  const configResponse = fetch('/config.json', { cache: 'no-cache', headers: { Accept: 'application/json' } });
  configResponse.catch(() => undefined); // boot() reports it; this only marks it handled if boot never runs
  try {
    // The dynamic import is federation's async boundary: shared modules are ready inside it.
    const [{ boot }, federation] = await Promise.all([import('./app/bootstrap'), import('@module-federation/enhanced/runtime')]);
    await boot(root, configResponse, federation);
  } catch (error) {
    // The old app only logged start-up failures; keep the log and also tell the user.
    console.error('Special Gift failed to start', error);
    showStartupFailure(root, () => void start());
  }
}

void start();
