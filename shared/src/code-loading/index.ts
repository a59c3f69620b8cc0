/**
 * Code that cannot be fetched (`@special-gift/shared/code-loading`; bundled where used, not a
 * federated share). A remote's lazy chunk that fails to load is missing code, not a camera or a
 * server problem: the remote says so in its own words and tells the host, which moves the tab to
 * the remote's live build when a release has replaced the one the page was composed with
 * (docs/releases.md).
 */
export const MISSING_CODE_EVENT = 'sg:missing-code';

export interface MissingCodeDetail {
  /** The remote whose code is missing. */
  readonly remote: string;
}

/** A webpack chunk, script or stylesheet, that did not load (gone after a release, or offline). */
export function isMissingCodeError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'ChunkLoadError' || code === 'CSS_CHUNK_LOAD_FAILED';
}

/** Tells the host that `remote` could not load part of its code. */
export function reportMissingCode(remote: string): void {
  window.dispatchEvent(new CustomEvent<MissingCodeDetail>(MISSING_CODE_EVENT, { detail: { remote } }));
}
