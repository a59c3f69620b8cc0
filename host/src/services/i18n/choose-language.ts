import { isLanguage, SUPPORTED_LANGUAGES, type Language } from '@special-gift/shared';

/** Stored choice, else the first supported browser language (by primary subtag), else the default. */
export function chooseLanguage(stored: unknown, browserLanguages: readonly string[], fallback: Language): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    const match = SUPPORTED_LANGUAGES.find((language) => language === primary);
    if (match) return match;
  }
  return fallback;
}
