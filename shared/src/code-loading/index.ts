/**
 * Code that cannot be fetched (`@special-gift/shared/code-loading`; bundled where used, not a
 * federated share). A remote's lazy chunk that fails to load is missing code, not a camera or a
 * server problem. The remote tells the host, which answers whether a new build replaced the one
 * the page runs (a release, an image roll, a rebuild: docs/releases.md) and then moves the tab to
 * it; the remote's words follow the answer: "updating" when the code is gone, the connection only
 * when it is not.
 */
export const MISSING_CODE_EVENT = 'sg:missing-code';

export interface MissingCodeDetail {
  /** The remote whose code is missing. */
  readonly remote: string;
  /** The file that failed, when the error names it (webpack's `request`). */
  readonly url?: string;
  /** The host's answer: true when it is moving the page to a newer build of the remote. */
  readonly respond?: (updating: boolean) => void;
}

/** How long a remote waits for the host's answer (one small fetch) before assuming no new build. */
export const ANSWER_TIMEOUT_MS = 5_000;

/** A webpack chunk, script or stylesheet, that did not load (gone after a release, or offline). */
export function isMissingCodeError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'ChunkLoadError' || code === 'CSS_CHUNK_LOAD_FAILED';
}

/** The URL of the file a missing-code error failed to load, if it says. */
export function missingCodeUrl(error: unknown): string | undefined {
  const request = (error as { request?: unknown } | null | undefined)?.request;
  return typeof request === 'string' ? request : undefined;
}

/**
 * Tells the host that `remote` could not load part of its code (`error`: what the import threw).
 * Resolves true when the page is moving to a newer build (the code is gone for good: say the page
 * is updating), false otherwise (unreachable: a connection problem, worth trying again).
 */
export function reportMissingCode(remote: string, error?: unknown): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ANSWER_TIMEOUT_MS);
    const respond = (updating: boolean) => {
      clearTimeout(timer);
      resolve(updating);
    };
    const url = missingCodeUrl(error);
    window.dispatchEvent(
      new CustomEvent<MissingCodeDetail>(MISSING_CODE_EVENT, {
        detail: { remote, respond, ...(url === undefined ? {} : { url }) },
      }),
    );
  });
}
