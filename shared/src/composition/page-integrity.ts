/**
 * The integrity of what the host itself loads from a published build, carried by the composed page
 * beside its builds: `<html data-sg-integrity="intro/remoteEntry.js=sha384-…,intro/assets/i18n/fr.json=sha384-…">`.
 * The API answers it (`Sg-Integrity`) from the hashes the release tool recorded at publish, and the
 * composer writes it as it is: it comes from the host's origin, never from a remote's. Each
 * `remoteEntry.js` embeds the hashes of its own chunks, so these few values anchor every byte
 * (docs/security.md).
 */
import { REMOTE_NAME_SOURCE } from '../builds';
export const PAGE_INTEGRITY_ATTRIBUTE = 'data-sg-integrity';

/** The files of a build whose integrity a page carries: what the host loads by URL itself. */
export function isPageLoaded(path: string): boolean {
  return path === 'remoteEntry.js' || /^assets\/i18n\/[a-z]{2,3}\.json$/.test(path);
}

/** A well-formed sha384 Subresource Integrity value. */
export const SRI_PATTERN = /^sha384-[A-Za-z0-9+/]{64}$/;

/**
 * What a page, or a remote's chunk loader, refuses with: a well-formed sha384 value that no file
 * matches. A file of a released build without a recorded hash is refused, never loaded unchecked.
 */
export const REFUSE_INTEGRITY = 'sha384-no-recorded-hash';
/** `<remote>/<path of a file in its build>`. */
const KEY = new RegExp(`^${REMOTE_NAME_SOURCE}/[A-Za-z0-9._/-]{1,200}$`);

/** `remote/path=integrity` pairs, sorted, comma-separated; only the files {@link isPageLoaded} names. */
export function formatPageIntegrity(
  integrity: Readonly<Record<string, Readonly<Record<string, string>> | null | undefined>>,
): string {
  const pairs: string[] = [];
  for (const remote of Object.keys(integrity).sort()) {
    const files = integrity[remote] ?? {};
    for (const path of Object.keys(files).sort())
      if (isPageLoaded(path)) pairs.push(`${remote}/${path}=${files[path] ?? ''}`);
  }
  return pairs.join(',');
}

/** Integrity by `remote/path`; anything malformed is left out (and so refused when asked for). */
export function parsePageIntegrity(value: string | null | undefined): Record<string, string> {
  const integrity: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at);
    const sri = pair.slice(at + 1);
    if (at > 0 && KEY.test(key) && SRI_PATTERN.test(sri)) integrity[key] = sri;
  }
  return integrity;
}
