/** Every language the product ships. Each remote must ship `assets/i18n/{lang}.json` for all of them. */
export const SUPPORTED_LANGUAGES = ['en', 'fr', 'ar'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * Language control for remotes. Texts themselves come from `useTranslation(ns)`, exported by this
 * package, which reads the host's single i18next instance.
 */
export interface ShellI18n {
  readonly languages: readonly Language[];
  current(): Language;
  /** Switches every screen without a reload, stores the choice and updates `<html lang dir>`. */
  changeLanguage(language: Language): Promise<void>;
}
