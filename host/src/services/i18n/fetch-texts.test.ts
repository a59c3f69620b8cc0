import { rejectionOf } from '@special-gift/shared/testing';
import { fetchTexts, TextsLoadError } from './fetch-texts';

const URL = 'https://signup.example/assets/i18n/en.json';
// The slice of a Response that fetchTexts reads (jsdom has no Response).
const answer = (status: number, body = '{"title":"Sign up"}') =>
  ({ ok: status >= 200 && status < 300, status, text: async () => body }) as Response;

function setup(...answers: Array<Response | Error>) {
  const fetch = jest.fn<Promise<Response>, [string, RequestInit]>();
  for (const next of answers) {
    if (next instanceof Error) fetch.mockRejectedValueOnce(next);
    else fetch.mockResolvedValueOnce(next);
  }
  const sleep = jest.fn<Promise<void>, [number]>(async () => undefined);
  return {
    fetch,
    sleep,
    options: { fetch: fetch as unknown as typeof globalThis.fetch, sleep, retryDelaysMs: [250, 750] },
  };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, TextsLoadError);

describe('fetchTexts', () => {
  it('answers the JSON object of a 200', async () => {
    const { fetch, options } = setup(answer(200));
    await expect(fetchTexts(URL, options)).resolves.toEqual({ title: 'Sign up' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ credentials: 'omit' });
    expect(fetch.mock.calls[0]?.[1].signal).toBeInstanceOf(AbortSignal);
  });

  it.each([
    ['a 503 from a rolling deploy', answer(503)],
    ['a network error', new TypeError('Failed to fetch')],
    ['a 429', answer(429)],
  ])('retries %s after a pause, and succeeds', async (_, first) => {
    const { fetch, sleep, options } = setup(first, answer(200));
    await expect(fetchTexts(URL, options)).resolves.toEqual({ title: 'Sign up' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sleep.mock.calls).toEqual([[250]]);
  });

  it('gives up after the last pause, with the last failure', async () => {
    const { fetch, sleep, options } = setup(answer(500), answer(502), answer(503));
    const error = await failure(fetchTexts(URL, options));
    expect(error.message).toContain('HTTP 503');
    expect(error.retryable).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls).toEqual([[250], [750]]);
  });

  it.each([
    ['a 404', answer(404), 'HTTP 404'],
    ['a body that is not JSON', answer(200, '<html>proxy error</html>'), 'not JSON'],
    ['JSON that is not an object', answer(200, '["title"]'), 'not a JSON object'],
  ])('does not retry %s: another attempt would get the same', async (_, first, message) => {
    const { fetch, sleep, options } = setup(first);
    const error = await failure(fetchTexts(URL, options));
    expect(error.message).toContain(message);
    expect(error.retryable).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('bounds each attempt in time: a request that never answers is aborted', async () => {
    const fetch = jest.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const error = await failure(
      fetchTexts(URL, { fetch: fetch as unknown as typeof globalThis.fetch, attemptTimeoutMs: 20, retryDelaysMs: [] }),
    );
    expect(error.message).toContain('network error or timeout');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('bounds the body too: a server that sends headers and then stalls is cut off, and retried', async () => {
    // Like a browser: aborting the request's signal fails the body read in progress.
    const stalled = (signal: AbortSignal) =>
      ({
        ok: true,
        status: 200,
        text: () => new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      }) as Response;
    const fetch = jest.fn(async (_url: string, init: RequestInit) => stalled(init.signal as AbortSignal));
    const error = await failure(
      fetchTexts(URL, { fetch: fetch as unknown as typeof globalThis.fetch, attemptTimeoutMs: 20, retryDelaysMs: [0] }),
    );
    expect(error.retryable).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('skips the HTTP cache when asked (a Try again must not queue behind a request in flight)', async () => {
    const { fetch, options } = setup(answer(200), answer(200));
    await fetchTexts(URL, { ...options, bypassCache: true });
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ cache: 'no-store' });
    await fetchTexts(URL, options);
    expect(fetch.mock.calls[1]?.[1].cache).toBeUndefined();
  });
});
