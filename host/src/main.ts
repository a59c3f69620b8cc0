import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { start } from './app/start';
import { yieldBetweenLoadSteps } from './services/remotes/yield-between-load-steps';

// The host provides its shared libraries eagerly (see tooling/webpack/shared-dependencies.ts), so
// the shell is in this one chunk and needs no async boundary before it starts.
registerPlugins([yieldBetweenLoadSteps()]);
start(document.getElementById('root') as HTMLElement, { registerRemotes, loadRemote });
