/** Why a remote screen could not be shown; the error screen words its message from this. */
export type RemoteLoadFailure = 'unavailable' | 'timeout' | 'incompatible';

export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';
  constructor(
    readonly remote: string,
    readonly reason: RemoteLoadFailure,
    options?: { cause?: unknown },
  ) {
    super(`Remote "${remote}" could not be loaded (${reason})`, options);
  }
}
