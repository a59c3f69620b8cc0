import { hasCardCodeShape, isLuhnValid, normalizeCardCode } from './card-code';

/** Why a scanned QR code was not taken as a card code; each has its own message in the form. */
export type ScannedCardCodeProblem =
  /** A link, but not under the configured card-scan base (another site, or another path). */
  | 'foreign_link'
  /** A scan link that carries no card code. */
  | 'no_card_code'
  /** Digits, but not 16 of them. */
  | 'invalid_card_code'
  /** 16 digits that fail the Luhn check. */
  | 'card_checksum'
  /** Neither a link nor a code. */
  | 'unrecognized';

export type ScannedCardCode =
  { readonly ok: true; readonly code: string } | { readonly ok: false; readonly problem: ScannedCardCodeProblem };

export interface ScanLinkOptions {
  /** The config's `cardScanBase`: an http(s) URL or a root-relative path. */
  readonly cardScanBase: string;
  /** Resolves a root-relative `cardScanBase` (the page's origin, e.g. `location.origin`). */
  readonly origin?: string;
}

const BARE_CODE = /^[0-9][0-9 -]*$/;

/**
 * Reads what the camera decoded from a card's QR code. Accepted: a scan link under `cardScanBase`
 * carrying the code as its last path segment (`<base>/<code>`) or as `card=` in the query (any path
 * under the base, e.g. `<base>/sign-up?card=<code>`), or a bare code with spaces or dashes.
 * The code must be 16 digits that pass the Luhn check. Pure: no DOM, no config lookup.
 */
export function parseScannedCardCode(text: string, options: ScanLinkOptions): ScannedCardCode {
  const trimmed = text.trim();
  if (BARE_CODE.test(trimmed)) return checkCode(normalizeCardCode(trimmed));

  const link = parseHttpUrl(trimmed);
  if (!link) return { ok: false, problem: 'unrecognized' };
  const base = parseHttpUrl(options.cardScanBase, options.origin);
  if (!base || !isUnder(link, base)) return { ok: false, problem: 'foreign_link' };

  const fromQuery = link.searchParams.get('card');
  if (fromQuery !== null) return checkCode(normalizeCardCode(fromQuery.trim()));
  const rest = decodeSegment(trimSlashes(trimSlashes(link.pathname).slice(trimSlashes(base.pathname).length)));
  if (!BARE_CODE.test(rest)) return { ok: false, problem: 'no_card_code' };
  return checkCode(normalizeCardCode(rest));
}

function checkCode(code: string): ScannedCardCode {
  if (code === '') return { ok: false, problem: 'no_card_code' };
  if (!hasCardCodeShape(code)) return { ok: false, problem: 'invalid_card_code' };
  if (!isLuhnValid(code)) return { ok: false, problem: 'card_checksum' };
  return { ok: true, code };
}

function parseHttpUrl(value: string, origin?: string): URL | undefined {
  try {
    const url = new URL(value, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Same origin, and the path is the base's path or below it (`/scan` does not cover `/scanner`). */
function isUnder(link: URL, base: URL): boolean {
  if (link.origin !== base.origin || link.username !== '' || link.password !== '') return false;
  const basePath = trimSlashes(base.pathname);
  const path = trimSlashes(link.pathname);
  return basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
