import {
  FALLBACK_LANGUAGE,
  isLanguage,
  SUPPORTED_LANGUAGES,
  type KeyValueStorage,
  type Language,
  type ShellI18n,
} from '@special-gift/shared';
import i18next, { type i18n as I18nInstance } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { chooseLanguage, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS } from '@special-gift/shared/composition';
import { RENDERING_I18N_OPTIONS } from '@special-gift/shared/host';
import { fetchTexts, type FetchTextsOptions } from './fetch-texts';

/** The host's own texts (error screens, not-found, overlay buttons). */
export const HOST_NAMESPACE = 'common';
export const LANGUAGE_STORAGE_KEY = 'language';

export interface ShellI18nService extends ShellI18n {
  readonly instance: I18nInstance;
  /**
   * Makes a remote's namespace loadable from `<baseUrl>assets/i18n/{lang}.json` and loads it in the
   * current language (and English, the fallback). Rejects only when neither could be loaded.
   */
  loadNamespace(namespace: string, baseUrl: string, options?: { fresh?: boolean }): Promise<void>;
}

/** Mirrors the user's choice into a cookie, so the server composes the next page in that language. */
function mirrorLanguageChoice(language: Language) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
}

function applyDocumentLanguage(instance: I18nInstance, language: string) {
  document.documentElement.lang = language;
  document.documentElement.dir = instance.dir(language);
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/**
 * The single i18next instance of the app. Each namespace is fetched from the origin that owns it:
 * `common` from the host, every remote's namespace from that remote, so a team changes its texts
 * by deploying only its remote.
 *
 * The host fetches the files itself rather than through an i18next backend: i18next loads every
 * known namespace as one batch and retries a failed file for about 10 s, so one remote's missing
 * texts would hold back every other screen. Here each namespace loads, fails and retries alone.
 */
export async function createI18n(options: {
  storage: KeyValueStorage;
  defaultLanguage: Language;
  browserLanguages?: readonly string[];
  /**
   * Remote namespaces to start loading together with `common` (namespace -> base URL), e.g. the
   * first screen's: its texts then arrive in the same round trip instead of one after `common`.
   * They are not awaited here; `loadNamespace` picks up the request in flight.
   */
  namespaces?: Readonly<Record<string, string>>;
  texts?: FetchTextsOptions;
}): Promise<ShellI18nService> {
  const sources = new Map<string, string>([[HOST_NAMESPACE, '/']]);
  /** One request per language and namespace, shared while in flight; a failure is forgotten so a retry fetches again. */
  const bundles = new Map<string, Promise<void>>();
  const stored = await options.storage.get<string>(LANGUAGE_STORAGE_KEY).catch(() => null);
  const language = chooseLanguage(stored, options.browserLanguages ?? navigator.languages, options.defaultLanguage);
  if (isLanguage(stored)) mirrorLanguageChoice(stored); // also for choices stored before the cookie existed

  const instance = i18next.createInstance();
  instance.on('languageChanged', (lng) => applyDocumentLanguage(instance, lng));
  await instance.use(initReactI18next).init({
    ...RENDERING_I18N_OPTIONS,
    lng: language,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    load: 'languageOnly',
    ns: [HOST_NAMESPACE],
    defaultNS: HOST_NAMESPACE,
    resources: {},
    partialBundledLanguages: true,
    // A language's file that arrives after the switch (it was slow) re-renders the screens using it.
    react: { useSuspense: true, bindI18nStore: 'added' },
  });

  function loadBundle(lng: Language, namespace: string, fresh = false): Promise<void> {
    const key = `${lng}|${namespace}`;
    const existing = fresh && !instance.hasResourceBundle(lng, namespace) ? undefined : bundles.get(key);
    if (existing) return existing;
    const url = `${sources.get(namespace) ?? '/'}assets/i18n/${lng}.json`;
    const loading = fetchTexts(url, { ...options.texts, bypassCache: fresh }).then(
      (texts) => {
        // Only texts the screens can show re-render them (every `useTranslation`, in every React
        // root on the page, re-renders on 'added'): the current language's, or English, the
        // fallback. The next language's, fetched before a switch, arrive silently, so a switch
        // re-renders once, on 'languageChanged', not once per file as well.
        const shown = lng === instance.language || lng === FALLBACK_LANGUAGE;
        instance.addResourceBundle(lng, namespace, texts, true, true, { silent: !shown });
      },
      (error: unknown) => {
        if (bundles.get(key) === loading) bundles.delete(key);
        throw error;
      },
    );
    bundles.set(key, loading);
    return loading;
  }

  /** The namespace in `lng` and in English; either is enough (a key missing in `lng` shows in English). */
  async function ensureNamespace(namespace: string, lng: Language, fresh = false): Promise<void> {
    const [wanted, fallback] = await Promise.allSettled([
      loadBundle(lng, namespace, fresh),
      loadBundle(FALLBACK_LANGUAGE, namespace, fresh),
    ]);
    if (wanted.status === 'rejected' && fallback.status === 'rejected') throw wanted.reason;
    if (wanted.status === 'rejected')
      console.warn(`[i18n] "${namespace}" texts in ${lng} could not be loaded; showing English.`, wanted.reason);
  }

  const current = (): Language => (isLanguage(instance.language) ? instance.language : FALLBACK_LANGUAGE);

  for (const [namespace, baseUrl] of Object.entries(options.namespaces ?? {})) {
    sources.set(namespace, withSlash(baseUrl));
    ensureNamespace(namespace, current()).catch(() => undefined); // reported by whoever awaits loadNamespace
  }
  await ensureNamespace(HOST_NAMESPACE, current());
  applyDocumentLanguage(instance, instance.language);

  return {
    instance,
    languages: SUPPORTED_LANGUAGES,
    current,
    async changeLanguage(next) {
      // Every namespace that has texts now gets them in the new language first, each on its own:
      // one that fails keeps showing English.
      const loaded = [...sources.keys()].filter(
        (namespace) =>
          instance.hasResourceBundle(FALLBACK_LANGUAGE, namespace) || instance.hasResourceBundle(current(), namespace),
      );
      await Promise.allSettled(loaded.map((namespace) => ensureNamespace(namespace, next)));
      await instance.changeLanguage(next);
      // A namespace still loading when the switch began (a remote preloaded just then) was not in
      // `loaded`: its texts in the new language follow without holding the switch, and re-render
      // its screen when they arrive. Without this it stayed in English (seen on a busy machine).
      // One that fails keeps English, as above.
      const loading = (namespace: string) => [...bundles.keys()].some((key) => key.endsWith(`|${namespace}`));
      for (const namespace of sources.keys())
        if (!loaded.includes(namespace) && loading(namespace)) ensureNamespace(namespace, next).catch(() => undefined);
      mirrorLanguageChoice(next);
      await options.storage.set(LANGUAGE_STORAGE_KEY, next);
    },
    async loadNamespace(namespace, baseUrl, { fresh = false } = {}) {
      sources.set(namespace, withSlash(baseUrl));
      // A fresh load does not join requests in flight (they may never answer); loaded texts stay.
      await ensureNamespace(namespace, current(), fresh);
    },
  };
}
