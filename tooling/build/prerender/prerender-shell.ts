import {
  CONTRACT_VERSION,
  SUPPORTED_LANGUAGES,
  type Language,
  type ShellApi,
  type ShellConfig,
  type ShellLocation,
} from '@special-gift/shared';

/**
 * The shell a screen sees while it is prerendered at build time. It answers what a first render
 * may read (the language, the location of a fresh load with no history) and refuses the rest with
 * a clear error: effects and event handlers, where storage, HTTP, overlays and navigation are
 * used, never run in a prerender, and the deployment's runtime config is not known at build time,
 * so a screen that reads it while rendering fails its build instead of shipping wrong HTML.
 */
export function createPrerenderShell(options: { route: string; language: Language }): ShellApi {
  const unavailable = (what: string) => () => {
    throw new Error(`${what} is not available while prerendering: use it in an effect or an event handler`);
  };
  const location: ShellLocation = { pathname: options.route, search: '', hash: '' };
  const config = new Proxy({} as ShellConfig, {
    get: (_target, key) => unavailable(`The runtime config (${String(key)})`)(),
  });
  return {
    contractVersion: CONTRACT_VERSION,
    config,
    navigation: {
      forward: unavailable('navigation.forward'),
      back: unavailable('navigation.back'),
      root: unavailable('navigation.root'),
      canGoBack: () => false, // a fresh page load has no in-app entry to go back to
      location: () => location,
      subscribe: () => () => undefined,
    },
    i18n: {
      languages: SUPPORTED_LANGUAGES,
      current: () => options.language,
      changeLanguage: unavailable('i18n.changeLanguage'),
    },
    storage: {
      get: unavailable('storage.get'),
      set: unavailable('storage.set'),
      remove: unavailable('storage.remove'),
      keys: unavailable('storage.keys'),
      clear: unavailable('storage.clear'),
      driver: () => 'noop',
    },
    overlays: {
      alert: unavailable('overlays.alert'),
      actionSheet: unavailable('overlays.actionSheet'),
      modal: unavailable('overlays.modal'),
      popover: unavailable('overlays.popover'),
      toast: unavailable('overlays.toast'),
    },
    http: { get: unavailable('http.get'), post: unavailable('http.post'), request: unavailable('http.request') },
  };
}
