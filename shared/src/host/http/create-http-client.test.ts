/**
 * @jest-environment node
 */
// Node's fetch types (Response, Headers, AbortController) are real here; jsdom has no Response.
// Origin and cookies are injected, as the client allows for tests.
import { HttpError, isHttpError, type ApiErrorBody } from '../../contract/http';
import { createHttpClient, DEFAULT_HTTP_TIMEOUT_MS, type HttpClientOptions } from './create-http-client';

const ORIGIN = 'https://app.special-gift.example';

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

function setup(options: Partial<HttpClientOptions> & { cookie?: string } = {}) {
  const jar = { cookie: options.cookie ?? '' };
  const fetchImpl = jest.fn<Promise<Response>, FetchArgs>(async () => json(200, { ok: true }));
  const client = createHttpClient({
    baseUrl: '/api/v1',
    origin: () => ORIGIN,
    cookies: () => jar.cookie,
    fetchImpl,
    ...options,
  });
  /** What the client passed to fetch on call `n`. */
  const sent = (n = 0) => {
    const call = fetchImpl.mock.calls[n];
    if (!call) throw new Error(`fetch was not called ${n + 1} time(s)`);
    const [input, init = {}] = call;
    return { url: String(input), init, headers: new Headers(init.headers) };
  };
  return { client, fetchImpl, jar, sent };
}

/** Settles a promise into its rejection reason, failing the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (!isHttpError(error)) throw new Error(`expected an HttpError, got ${String(error)}`, { cause: error });
    return error;
  }
  throw new Error('expected the request to fail');
}

/** A fetch that never answers but rejects, as fetch does, when its signal is or becomes aborted. */
function hangingFetch(_input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (init?.signal?.aborted) abort();
    init?.signal?.addEventListener('abort', abort);
  });
}

describe('createHttpClient: requests', () => {
  it('GETs JSON from the base URL with credentials limited to the same origin', async () => {
    const { client, fetchImpl, sent } = setup();
    fetchImpl.mockResolvedValueOnce(json(200, { id: 7 }));

    await expect(client.get('status')).resolves.toEqual({ id: 7 });
    const { url, init, headers } = sent();
    expect(url).toBe('/api/v1/status');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBeUndefined();
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('POSTs the body as JSON with a JSON Content-Type and keeps caller headers', async () => {
    const { client, sent } = setup();
    await client.post('sign-ups', { firstName: 'Ada', acceptedTerms: true }, { headers: { 'Idempotency-Key': 'k-1' } });
    const { init, headers } = sent();
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"firstName":"Ada","acceptedTerms":true}');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Idempotency-Key')).toBe('k-1');
  });

  it.each([
    ['/api/v1', 'sign-ups', '/api/v1/sign-ups'],
    ['/api/v1/', '/sign-ups', '/api/v1/sign-ups'],
    ['/api/v1', '//cdn.example/x', '//cdn.example/x'],
    ['https://api.example/v2/', 'cards/1', 'https://api.example/v2/cards/1'],
    ['/api/v1', 'https://other.example/x', 'https://other.example/x'],
    ['/api/v1', 'HTTP://other.example/x', 'HTTP://other.example/x'],
  ])('joins base %s and path %s into %s', async (baseUrl, path, expected) => {
    const { client, sent } = setup({ baseUrl });
    await client.get(path);
    expect(sent().url).toBe(expected);
  });

  it('sends any method through request()', async () => {
    const { client, sent } = setup();
    await client.request('DELETE', 'sign-ups/1');
    expect(sent().init.method).toBe('DELETE');
    expect(sent().url).toBe('/api/v1/sign-ups/1');
  });

  it('answers undefined for an empty body, text for a non-JSON body, and text for broken JSON', async () => {
    const { client, fetchImpl } = setup();
    fetchImpl.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(client.post('ping', {})).resolves.toBeUndefined();

    fetchImpl.mockResolvedValueOnce(
      new Response('plain words', { status: 200, headers: { 'Content-Type': 'text/plain' } }),
    );
    await expect(client.get('text')).resolves.toBe('plain words');

    fetchImpl.mockResolvedValueOnce(
      new Response('{not json', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    await expect(client.get('broken')).resolves.toBe('{not json');
  });
});

describe('createHttpClient: XSRF double-submit', () => {
  const cookie = 'theme=dark; XSRF-TOKEN=tok%3D42';

  it('copies the cookie into X-XSRF-TOKEN on a mutating same-origin request', async () => {
    const { client, sent } = setup({ cookie });
    await client.post('sign-ups', {});
    expect(sent().headers.get('X-XSRF-TOKEN')).toBe('tok=42');
  });

  it('leaves it off GET requests, other origins and requests without a cookie', async () => {
    const withCookie = setup({ cookie });
    await withCookie.client.get('status');
    await withCookie.client.post('https://evil.example/collect', {});
    await withCookie.client.post('//evil.example/collect', {});
    for (const n of [0, 1, 2]) expect(withCookie.sent(n).headers.has('X-XSRF-TOKEN')).toBe(false);

    const withoutCookie = setup();
    await withoutCookie.client.post('sign-ups', {});
    expect(withoutCookie.sent().headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('sends it to an absolute URL on its own origin', async () => {
    const { client, sent } = setup({ cookie });
    await client.post(`${ORIGIN}/api/v1/sign-ups`, {});
    expect(sent().headers.get('X-XSRF-TOKEN')).toBe('tok=42');
  });

  it('never overwrites a header the caller set, whatever its case', async () => {
    const { client, sent } = setup({ cookie });
    await client.post('a', {}, { headers: { 'X-XSRF-TOKEN': 'mine' } });
    await client.post('b', {}, { headers: { 'x-xsrf-token': 'lower' } });
    expect(sent(0).headers.get('X-XSRF-TOKEN')).toBe('mine');
    expect(sent(1).headers.get('X-XSRF-TOKEN')).toBe('lower');
  });

  it('retries once when the first mutating call is refused with 403 and the cookie appears', async () => {
    const { client, fetchImpl, jar, sent } = setup();
    fetchImpl.mockImplementationOnce(async () => {
      jar.cookie = 'XSRF-TOKEN=fresh';
      return json(403, { error: { code: 'xsrf', message: 'Missing XSRF token' } });
    });
    fetchImpl.mockResolvedValueOnce(json(201, { id: 'created' }));

    await expect(client.post('sign-ups', { a: 1 })).resolves.toEqual({ id: 'created' });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(sent(0).headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(sent(1).headers.get('X-XSRF-TOKEN')).toBe('fresh');
    expect(sent(1).init.body).toBe('{"a":1}');
  });

  it('retries only once: a second 403 is reported', async () => {
    const { client, fetchImpl, jar } = setup();
    fetchImpl.mockImplementation(async () => {
      jar.cookie = 'XSRF-TOKEN=fresh';
      return json(403, { error: { code: 'forbidden', message: 'No' } });
    });
    const error = await rejectionOf(client.post('sign-ups', {}));
    expect(error.status).toBe(403);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('with xsrfPrimePath, fetches the cookie first so the first mutating call is not refused', async () => {
    const { client, fetchImpl, jar, sent } = setup({ xsrfPrimePath: 'health' });
    fetchImpl.mockImplementationOnce(async () => {
      jar.cookie = 'XSRF-TOKEN=primed';
      return json(200, { status: 'ok' });
    });
    fetchImpl.mockResolvedValueOnce(json(201, { id: 'created' }));

    await expect(client.post('sign-ups', { a: 1 })).resolves.toEqual({ id: 'created' });
    expect(sent(0).url).toBe('/api/v1/health');
    expect(sent(0).init.method).toBe('GET');
    expect(sent(1).headers.get('X-XSRF-TOKEN')).toBe('primed');
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('with xsrfPrimePath, primes nothing when the cookie exists or the request is a GET', async () => {
    const withCookie = setup({ xsrfPrimePath: 'health', cookie: 'XSRF-TOKEN=have' });
    await withCookie.client.post('sign-ups', {});
    expect(withCookie.fetchImpl).toHaveBeenCalledTimes(1);
    const get = setup({ xsrfPrimePath: 'health' });
    await get.client.get('status');
    expect(get.fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('does not retry a 403 when a token was already sent, or when no cookie arrived', async () => {
    const withToken = setup({ cookie: 'XSRF-TOKEN=old' });
    withToken.fetchImpl.mockResolvedValue(json(403, { error: { code: 'forbidden', message: 'No' } }));
    await expect(rejectionOf(withToken.client.post('sign-ups', {}))).resolves.toMatchObject({
      kind: 'http',
      status: 403,
    });
    expect(withToken.fetchImpl).toHaveBeenCalledTimes(1);

    const noCookie = setup();
    noCookie.fetchImpl.mockResolvedValue(json(403, { error: { code: 'forbidden', message: 'No' } }));
    await rejectionOf(noCookie.client.post('sign-ups', {}));
    expect(noCookie.fetchImpl).toHaveBeenCalledTimes(1);
  });
});

describe('createHttpClient: failures', () => {
  it("turns an error status with the API's error body into HttpError 'http' with status and body", async () => {
    const { client, fetchImpl } = setup();
    const body: ApiErrorBody = {
      error: {
        code: 'card_already_registered',
        message: 'Card already registered',
        fields: { cardCode: 'already_registered' },
      },
    };
    fetchImpl.mockResolvedValueOnce(json(409, body));

    const error = await rejectionOf(client.post('sign-ups', {}));
    expect(error).toBeInstanceOf(HttpError);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(409);
    expect(error.body).toEqual(body);
    expect(error.message).toBe('Card already registered');
  });

  it('describes an error status without an API body by method, path and status', async () => {
    const { client, fetchImpl } = setup();
    fetchImpl.mockResolvedValueOnce(
      new Response('Bad gateway', { status: 502, headers: { 'Content-Type': 'text/html' } }),
    );
    const error = await rejectionOf(client.get('status'));
    expect(error).toMatchObject({ kind: 'http', status: 502, body: undefined, message: 'GET status answered 502' });
  });

  it("turns a fetch rejection into HttpError 'network', keeping the cause", async () => {
    const { client, fetchImpl } = setup();
    const cause = new TypeError('Failed to fetch');
    fetchImpl.mockRejectedValueOnce(cause);
    const error = await rejectionOf(client.post('sign-ups', {}));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.cause).toBe(cause);
  });

  it("aborts with HttpError 'aborted' when the caller's signal aborts, before or during the request", async () => {
    const { client, fetchImpl } = setup();
    fetchImpl.mockImplementation(hangingFetch);

    const controller = new AbortController();
    const during = client.get('slow', { signal: controller.signal });
    controller.abort();
    await expect(rejectionOf(during)).resolves.toMatchObject({ kind: 'aborted' });

    const early = client.get('slow', { signal: AbortSignal.abort() });
    await expect(rejectionOf(early)).resolves.toMatchObject({ kind: 'aborted' });
  });

  describe('timeouts', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it(`gives up with HttpError 'timeout' after the default ${DEFAULT_HTTP_TIMEOUT_MS} ms`, async () => {
      const { client, fetchImpl } = setup();
      fetchImpl.mockImplementation(hangingFetch);
      const settled = jest.fn();
      const result = rejectionOf(client.get('slow'));
      void result.then(settled);

      await jest.advanceTimersByTimeAsync(DEFAULT_HTTP_TIMEOUT_MS - 1);
      expect(settled).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toMatchObject({ kind: 'timeout' });
    });

    it('honours the client-wide and the per-request timeout, the latter first', async () => {
      const { client, fetchImpl } = setup({ timeoutMs: 1000 });
      fetchImpl.mockImplementation(hangingFetch);

      const clientWide = rejectionOf(client.get('slow'));
      await jest.advanceTimersByTimeAsync(1000);
      await expect(clientWide).resolves.toMatchObject({ kind: 'timeout' });

      const perRequest = rejectionOf(client.get('slow', { timeoutMs: 50 }));
      await jest.advanceTimersByTimeAsync(50);
      await expect(perRequest).resolves.toMatchObject({ kind: 'timeout' });
    });

    it('clears its timer once the answer is in', async () => {
      const { client } = setup();
      await client.get('fast');
      expect(jest.getTimerCount()).toBe(0);
    });
  });
});
