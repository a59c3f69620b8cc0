import { showStartupFailure } from './features/startup/startup-failure';

const root = document.getElementById('root') as HTMLElement;

async function start(): Promise<void> {
  // Fetch the runtime config while the app code downloads.
  const configResponse = fetch('/config.json', { cache: 'no-cache', headers: { Accept: 'application/json' } });
  try {
    // The dynamic import is federation's async boundary: shared modules are ready inside it.
    const { boot } = await import('./app/bootstrap');
    await boot(root, configResponse);
  } catch (error) {
    // The old app only logged start-up failures; keep the log and also tell the user.
    console.error('Special Gift failed to start', error);
    showStartupFailure(root, () => void start());
  }
}

void start();
