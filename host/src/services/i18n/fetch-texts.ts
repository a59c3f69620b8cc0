import { sleep } from '../scheduling/timing';

/** A translation file could not be had; `retryable` says whether another attempt could help. */
export class TextsLoadError extends Error {
  override readonly name = 'TextsLoadError';
  constructor(
    readonly url: string,
    readonly retryable: boolean,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Texts ${url}: ${message}`, options);
  }
}

export interface FetchTextsOptions {
  /**
   * Waits before each further attempt after a transient failure (network error, timeout, 408, 429,
   * 5xx). A 4xx or a body that is not a JSON object is final at once.
   */
  retryDelaysMs?: readonly number[];
  /** One attempt is abandoned after this long, so a server that never answers is bounded. */
  attemptTimeoutMs?: number;
  /**
   * Skip the HTTP cache: a new request that does not queue behind one to the same URL still in
   * flight (browsers let one request per URL write the cache at a time), for the user's Try again.
   */
  bypassCache?: boolean;
  /**
   * The integrity the file must have (the page's, docs/security.md): the browser refuses other
   * bytes. Undefined: a file the page has no hash for (a remote's own image build).
   */
  integrityOf?: (url: string) => string | undefined;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Two quick retries ride out a dropped packet or one 5xx from a rolling deploy (about 1 s in all);
 * anything longer is a real outage, which the route's error screen and its Try again handle.
 */
export const TEXTS_RETRY_DELAYS_MS: readonly number[] = [250, 750];
/** A texts file is a few KB: 8 s covers a slow 3G round trip several times over. */
export const TEXTS_ATTEMPT_TIMEOUT_MS = 8_000;

const RETRYABLE_STATUS = new Set([408, 425, 429]);

async function fetchOnce(
  url: string,
  fetchImpl: typeof fetch,
  timeoutMs: number,
  bypassCache: boolean,
  integrity: string | undefined,
): Promise<Record<string, unknown>> {
  // The bound covers the body too. An AbortController rather than AbortSignal.timeout(), which
  // Safari before 16 lacks.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let response: Response;
    let text = '';
    try {
      response = await fetchImpl(url, {
        credentials: 'omit',
        signal: controller.signal,
        ...(bypassCache ? { cache: 'no-store' } : {}),
        ...(integrity === undefined ? {} : { integrity }),
      });
      if (response.ok) text = await response.text();
    } catch (cause) {
      throw new TextsLoadError(url, true, 'network error or timeout', { cause });
    }
    if (!response.ok) {
      throw new TextsLoadError(
        url,
        response.status >= 500 || RETRYABLE_STATUS.has(response.status),
        `HTTP ${response.status}`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw new TextsLoadError(url, false, 'not JSON', { cause });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new TextsLoadError(url, false, 'not a JSON object');
    return body as Record<string, unknown>;
  } finally {
    clearTimeout(timer);
  }
}

/** Fetches one translation file, retrying only what a retry can fix, each attempt bounded in time. */
export async function fetchTexts(url: string, options: FetchTextsOptions = {}): Promise<Record<string, unknown>> {
  const delays = options.retryDelaysMs ?? TEXTS_RETRY_DELAYS_MS;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const wait = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fetchOnce(
        url,
        fetchImpl,
        options.attemptTimeoutMs ?? TEXTS_ATTEMPT_TIMEOUT_MS,
        options.bypassCache ?? false,
        options.integrityOf?.(url),
      );
    } catch (error) {
      const delay = delays[attempt];
      if (!(error instanceof TextsLoadError) || !error.retryable || delay === undefined) throw error;
      await wait(delay);
    }
  }
}
