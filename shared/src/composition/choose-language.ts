import { isLanguage, SUPPORTED_LANGUAGES, type Language } from '../contract/i18n';

/**
 * The one rule for the page's language, used by the browser (stored choice, `navigator.languages`)
 * and by the page composer (the cookie that mirrors the stored choice, `Accept-Language`), so the
 * server's HTML is in the language the client then picks: the stored choice, else the first
 * supported language the browser lists (by primary subtag), else the default.
 */
export function chooseLanguage(stored: unknown, browserLanguages: readonly string[], fallback: Language): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    const match = SUPPORTED_LANGUAGES.find((language) => language === primary);
    if (match) return match;
  }
  return fallback;
}

/**
 * The tags of an `Accept-Language` header in the order listed, without those the client refuses
 * (q=0). Browsers list their languages by preference, the order `navigator.languages` has.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
      const q = params.find((param) => /^q=/i.test(param));
      return { tag, refused: q !== undefined && Number(q.slice(2)) === 0 };
    })
    .filter(({ tag, refused }) => tag !== '' && tag !== '*' && !refused)
    .map(({ tag }) => tag);
}

/** Writing direction of a supported language. */
export const textDirection = (language: Language): 'ltr' | 'rtl' => (language === 'ar' ? 'rtl' : 'ltr');
