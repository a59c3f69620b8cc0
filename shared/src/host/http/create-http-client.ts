import { HttpError, type ApiErrorBody, type HttpClient, type HttpRequestOptions } from '../../contract/http';
import { needsXsrfHeader, readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from '../../xsrf';

export interface HttpClientOptions {
  /** Prefix for relative paths: the runtime config's `apiBase`. */
  baseUrl: string;
  /** Default bound on one request, in milliseconds. */
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  /**
   * A cheap GET (relative to `baseUrl`) that makes the API set the XSRF cookie. When given, a
   * mutating request made before the cookie exists fetches it first, so it is not refused.
   */
  xsrfPrimePath?: string;
  /** Injected for tests; the browser's own by default. */
  origin?: () => string;
  cookies?: () => string;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 15_000;

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

function resolveUrl(baseUrl: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('//')) return path;
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The one HTTP client for API calls: JSON in and out, XSRF double-submit as the old Angular app
 * did, a timeout and caller abort, and a typed HttpError for every failure.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const origin = options.origin ?? (() => window.location.origin);
  const cookies = options.cookies ?? (() => document.cookie);

  /** One exchange, body included: the timeout and the caller's abort cover reading the answer too. */
  async function send(
    method: string,
    path: string,
    body: unknown,
    request: HttpRequestOptions,
  ): Promise<{ response: Response; payload: unknown }> {
    const url = resolveUrl(options.baseUrl, path);
    const headers = new Headers({ Accept: 'application/json', ...request.headers });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const token = readCookie(cookies(), XSRF_COOKIE_NAME);
    if (token !== null && !headers.has(XSRF_HEADER_NAME) && needsXsrfHeader(method, url, origin())) {
      headers.set(XSRF_HEADER_NAME, token);
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      request.timeoutMs ?? options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
    );
    const onCallerAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (request.signal?.aborted) controller.abort();

    try {
      const response = await fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      return { response, payload: await readBody(response) };
    } catch (cause) {
      if (timedOut) throw new HttpError('timeout', `${method} ${url} timed out`, undefined, undefined, { cause });
      if (request.signal?.aborted)
        throw new HttpError('aborted', `${method} ${url} was aborted`, undefined, undefined, { cause });
      throw new HttpError('network', `${method} ${url} failed: network error`, undefined, undefined, { cause });
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    requestOptions: HttpRequestOptions = {},
  ): Promise<T> {
    if (
      options.xsrfPrimePath &&
      readCookie(cookies(), XSRF_COOKIE_NAME) === null &&
      needsXsrfHeader(method, resolveUrl(options.baseUrl, path), origin())
    ) {
      await send('GET', options.xsrfPrimePath, undefined, requestOptions);
    }
    const sentToken = readCookie(cookies(), XSRF_COOKIE_NAME);
    let { response, payload } = await send(method, path, body, requestOptions);
    // No cookie was sent (priming off or failed): the API answered 403 and set it; retry once with it.
    if (response.status === 403 && sentToken === null && readCookie(cookies(), XSRF_COOKIE_NAME) !== null) {
      ({ response, payload } = await send(method, path, body, requestOptions));
    }
    if (!response.ok) {
      const apiError = isApiErrorBody(payload) ? payload : undefined;
      throw new HttpError(
        'http',
        apiError?.error.message ?? `${method} ${path} answered ${response.status}`,
        response.status,
        apiError,
      );
    }
    return payload as T;
  }

  return {
    request,
    get: (path, requestOptions) => request('GET', path, undefined, requestOptions),
    post: (path, body, requestOptions) => request('POST', path, body, requestOptions),
  };
}
