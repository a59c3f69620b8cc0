import {
  FALLBACK_LANGUAGE,
  SUPPORTED_LANGUAGES,
  type KeyValueStorage,
  type Language,
  type ShellI18n,
} from '@special-gift/shared';
import i18next, { type i18n as I18nInstance } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { chooseLanguage } from './choose-language';

/** The host's own texts (error screens, not-found, overlay buttons). */
export const HOST_NAMESPACE = 'common';
export const LANGUAGE_STORAGE_KEY = 'language';

export interface ShellI18nService extends ShellI18n {
  readonly instance: I18nInstance;
  /** Makes a remote's namespace loadable from `<baseUrl>assets/i18n/{lang}.json` and loads it. */
  loadNamespace(namespace: string, baseUrl: string): Promise<void>;
}

function applyDocumentLanguage(instance: I18nInstance, language: string) {
  document.documentElement.lang = language;
  document.documentElement.dir = instance.dir(language);
}

/**
 * The single i18next instance of the app. Each namespace is fetched from the origin that owns it:
 * `common` from the host, every remote's namespace from that remote, so a team changes its texts
 * by deploying only its remote.
 */
export async function createI18n(options: {
  storage: KeyValueStorage;
  defaultLanguage: Language;
  browserLanguages?: readonly string[];
  /**
   * Remote namespaces to load together with `common` (namespace -> base URL), e.g. the first
   * screen's: its texts then arrive in the same round trip instead of one after `common`.
   */
  namespaces?: Readonly<Record<string, string>>;
}): Promise<ShellI18nService> {
  const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
  const sources = new Map<string, string>([[HOST_NAMESPACE, '/']]);
  for (const [namespace, baseUrl] of Object.entries(options.namespaces ?? {})) sources.set(namespace, withSlash(baseUrl));
  const stored = await options.storage.get<string>(LANGUAGE_STORAGE_KEY).catch(() => null);
  const language = chooseLanguage(stored, options.browserLanguages ?? navigator.languages, options.defaultLanguage);

  const instance = i18next.createInstance();
  instance.on('languageChanged', (lng) => applyDocumentLanguage(instance, lng));
  await instance
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...SUPPORTED_LANGUAGES],
      load: 'languageOnly',
      ns: [...sources.keys()],
      defaultNS: HOST_NAMESPACE,
      interpolation: { escapeValue: false }, // React escapes.
      returnEmptyString: false,
      // A key missing in every language renders as nothing rather than as a raw key.
      parseMissingKeyHandler: () => '',
      backend: {
        loadPath: (_languages: string[], namespaces: string[]) =>
          `${sources.get(namespaces[0] ?? HOST_NAMESPACE) ?? '/'}assets/i18n/{{lng}}.json`,
      },
      react: { useSuspense: true },
    });
  applyDocumentLanguage(instance, instance.language);

  return {
    instance,
    languages: SUPPORTED_LANGUAGES,
    current: () => (SUPPORTED_LANGUAGES as readonly string[]).includes(instance.language) ? (instance.language as Language) : FALLBACK_LANGUAGE,
    async changeLanguage(next) {
      await instance.changeLanguage(next);
      await options.storage.set(LANGUAGE_STORAGE_KEY, next);
    },
    async loadNamespace(namespace, baseUrl) {
      sources.set(namespace, withSlash(baseUrl));
      await instance.loadNamespaces(namespace);
    },
  };
}
