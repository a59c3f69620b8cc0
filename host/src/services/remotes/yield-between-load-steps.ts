import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { yieldToBrowser } from '../scheduling/timing';

/**
 * A federation runtime plugin: loading a remote's screen yields to the browser between its steps.
 * Otherwise the runtime initialises the container (sharing negotiation) and asks for the screen in
 * the task of the entry script's load event, and runs the screen's module in the task its chunk
 * arrives in: long tasks, and the preload of every remote after the first screen would hold the
 * user's first taps.
 */
export function yieldBetweenLoadSteps(): ModuleFederationRuntimePlugin {
  return {
    name: 'special-gift:yield-between-load-steps',
    beforeInitRemote: () => yieldToBrowser(),
    beforeGetExpose: () => yieldToBrowser(),
    beforeExecuteFactory: () => yieldToBrowser(),
  };
}

/**
 * A federation runtime plugin: each remote's entry script is fetched with CORS (`crossorigin`) and
 * the integrity the page has for it (`integrityOf`), as
 * webpack fetches the remotes' chunks (`output.crossOriginLoading`). The remotes allow the host's
 * origin, and an error thrown by their code then reaches the page with its script and stack instead
 * of a bare "Script error.", so field telemetry can tell which remote threw it.
 */
export function corsEntryScripts(
  integrityOf: (url: string) => string | undefined = () => undefined,
): ModuleFederationRuntimePlugin {
  return {
    name: 'special-gift:cors-entry-scripts',
    createScript({ url }) {
      const script = document.createElement('script');
      // Before src: the browser checks the bytes against the hash the page carries from the API
      // (docs/security.md), and refuses the entry (an error event) if they differ.
      const integrity = integrityOf(url);
      if (integrity !== undefined) script.integrity = integrity;
      script.crossOrigin = 'anonymous';
      script.src = url;
      return script;
    },
  };
}
