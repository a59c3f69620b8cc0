/**
 * The browser engine a beacon came from, from its User-Agent header: only this coarse class is
 * stored (never the header), so the report can say which engines a build's vitals came from.
 * Every browser on iOS and iPadOS is WebKit whatever its name (CriOS, FxiOS, EdgiOS); an iPad that
 * asks for desktop sites says "Macintosh" and Safari, which the WebKit rule catches.
 */
export const ENGINES = ['blink', 'gecko', 'webkit', 'other'] as const;
export type Engine = (typeof ENGINES)[number];

export function engineOf(userAgent: string | undefined): Engine {
  if (!userAgent) return 'other';
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'webkit';
  if (/\bGecko\/\d/.test(userAgent) && /\bFirefox\//.test(userAgent)) return 'gecko';
  if (/\b(Chrome|Chromium|HeadlessChrome)\//.test(userAgent)) return 'blink';
  if (/\bAppleWebKit\//.test(userAgent)) return 'webkit';
  return 'other';
}
