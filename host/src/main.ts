import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { start } from './app/start';
import { recordUncaughtErrors } from './services/telemetry/signals';

recordUncaughtErrors();

// The host provides its shared libraries eagerly (see tooling/build/webpack/shared-dependencies.ts), so
// the shell is in this one chunk, no chunk request before it starts (start.ts only yields tasks).
start(document.getElementById('root') as HTMLElement, { registerRemotes, loadRemote, registerPlugins });
