/** Why a remote screen could not be shown; the error screen words its message from this. */
export type RemoteLoadFailure = 'unavailable' | 'timeout' | 'incompatible';

export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';
  /**
   * The browser refused a file of the remote's build whose bytes were there: they did not match
   * the hash recorded at publish (docs/security.md). Told to field telemetry only; the user sees
   * the same screen as for an outage.
   */
  readonly integrity: boolean;
  constructor(
    readonly remote: string,
    readonly reason: RemoteLoadFailure,
    options?: { cause?: unknown; integrity?: boolean },
  ) {
    super(`Remote "${remote}" could not be loaded (${reason})`, options);
    this.integrity = options?.integrity ?? false;
  }
}
