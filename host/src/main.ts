import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { start } from './app/start';

// The host provides its shared libraries eagerly (see tooling/webpack/shared-dependencies.ts), so
// the shell is in this one chunk and needs no async boundary before it starts.
start(document.getElementById('root') as HTMLElement, { registerRemotes, loadRemote });
