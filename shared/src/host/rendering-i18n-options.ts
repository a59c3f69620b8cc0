import type { InitOptions } from 'i18next';
import { FALLBACK_LANGUAGE } from '../contract/i18n';

/**
 * The i18next options that change what a screen renders: the host's i18n and the prerender step
 * both use them, so a screen renders the same markup at build time and when it hydrates.
 */
export const RENDERING_I18N_OPTIONS = {
  fallbackLng: FALLBACK_LANGUAGE,
  interpolation: { escapeValue: false }, // React escapes.
  returnEmptyString: false,
  // A key missing in every language renders as nothing rather than as a raw key.
  parseMissingKeyHandler: () => '',
} satisfies InitOptions;
