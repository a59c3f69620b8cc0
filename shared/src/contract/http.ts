// The API's documented JSON error body: one definition, in the wire contract.
export type { ApiErrorBody } from '../api';
import type { ApiErrorBody } from '../api';

export type HttpErrorKind = 'network' | 'timeout' | 'aborted' | 'http';

/** Every failure of the shell's HTTP client is one of these; `kind` tells which. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly status?: number,
    /** The API's JSON error body, when the server sent one. */
    readonly body?: ApiErrorBody,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isHttpError(error: unknown): error is HttpError {
  // Checked by shape as well as class, so an error crossing a federation boundary still matches.
  return error instanceof HttpError || (error instanceof Error && error.name === 'HttpError' && 'kind' in error);
}

export interface HttpRequestOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Overrides the client's default timeout, in milliseconds. */
  readonly timeoutMs?: number;
}

export interface HttpClient {
  /** `path` is relative to the config's `apiBase` unless it is absolute. */
  get<T>(path: string, options?: HttpRequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, options?: HttpRequestOptions): Promise<T>;
  request<T>(method: string, path: string, body?: unknown, options?: HttpRequestOptions): Promise<T>;
}
