import type { Language } from './i18n';

/** The part of the runtime config (host `config.json`) that remotes may read. */
export interface ShellConfig {
  /** Base of the product API, e.g. `/api/v1` (same origin, so the XSRF cookie works). */
  readonly apiBase: string;
  /** Base address of printed-card scan links: `<base>/<code>`, or a link under it with `?card=<code>` (parseScannedCardCode). */
  readonly cardScanBase: string;
  /** The provider's public site, linked from the thank-you screen. */
  readonly siteBase: string;
  readonly defaultLanguage: Language;
}
