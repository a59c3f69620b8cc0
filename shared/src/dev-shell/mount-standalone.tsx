import i18next from 'i18next';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { RemoteScreenModule } from '../contract/remote-module';
import { FALLBACK_LANGUAGE, isLanguage, SUPPORTED_LANGUAGES, type Language } from '../contract/i18n';
import type { ShellApi } from '../contract/shell';
import { CONTRACT_VERSION } from '../version';
import { createHttpClient, createOverlayController, OverlayHost } from '../host';
import { ShellProvider } from '../contract/react/shell-context';
import '../styles/index.css';
import { createDevNavigation } from './dev-navigation';
import { createDevStorage } from './dev-storage';
import './dev-shell.css';

async function fetchTexts(language: string): Promise<Record<string, unknown>> {
  const response = await fetch(`/assets/i18n/${language}.json`);
  return response.ok ? ((await response.json()) as Record<string, unknown>) : {};
}

/**
 * Runs one remote's screen alone, for its team: real translations from the remote's own
 * `assets/i18n`, the real overlays and HTTP client (the dev server proxies `/api` to the API),
 * localStorage storage and a URL-only navigation. Not used in production.
 */
export async function mountStandalone(
  load: () => Promise<RemoteScreenModule>,
  rootElement = document.getElementById('root'),
): Promise<void> {
  if (!rootElement) throw new Error('mountStandalone needs a #root element');
  const module = await load();
  const { namespace } = module.meta;
  const storage = createDevStorage();
  const stored = await storage.get<string>('language');
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: isLanguage(stored) ? stored : FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [namespace],
    defaultNS: namespace,
    resources: {},
    interpolation: { escapeValue: false },
  });
  const loadLanguage = async (language: Language) => {
    if (!i18n.hasResourceBundle(language, namespace))
      i18n.addResourceBundle(language, namespace, await fetchTexts(language));
  };
  await Promise.all([loadLanguage(FALLBACK_LANGUAGE), loadLanguage(i18n.language as Language)]);
  const applyDir = () => {
    document.documentElement.lang = i18n.language;
    document.documentElement.dir = i18n.dir(i18n.language);
  };
  applyDir();

  const overlays = createOverlayController();
  const shell: ShellApi = {
    contractVersion: CONTRACT_VERSION,
    config: {
      apiBase: '/api/v1',
      cardScanBase: 'https://www.special-gift.example/scan',
      siteBase: 'https://www.special-gift.example',
      defaultLanguage: FALLBACK_LANGUAGE,
    },
    navigation: createDevNavigation(),
    storage,
    overlays,
    http: createHttpClient({ baseUrl: '/api/v1' }),
    i18n: {
      languages: SUPPORTED_LANGUAGES,
      current: () => (isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE),
      changeLanguage: async (language) => {
        await loadLanguage(language);
        await i18n.changeLanguage(language);
        applyDir();
        await storage.set('language', language);
      },
    },
  };

  const Screen = module.default;
  function DevShell() {
    // Re-render on every URL change so the screen reads the current location.
    useSyncExternalStore(shell.navigation.subscribe, shell.navigation.location);
    return (
      <>
        <p className="sg-dev-shell__banner">
          Dev shell · {namespace} · contract v{CONTRACT_VERSION}
        </p>
        <Screen />
        <OverlayHost controller={overlays} labels={{ ok: 'OK', cancel: 'Cancel', close: 'Close' }} />
      </>
    );
  }
  createRoot(rootElement).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ShellProvider shell={shell}>
          <DevShell />
        </ShellProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}
