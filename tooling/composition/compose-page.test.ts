import { createPageComposer, createScreenFiles, pageBucket, pageVariables, remoteBase } from './compose-page';
import {
  FRAGMENT_CACHE_SECONDS,
  FRAGMENT_TIMEOUT_MS,
  pageBootstrapScript,
  PAGE_TOKEN,
  toPageTemplate,
} from './composition';
import { createHmac } from 'node:crypto';
import { STATE_FORMAT, type ReleaseState } from '@special-gift/shared/release-state';
import { pageTokenPayload, parsePageToken } from '@special-gift/shared/telemetry';
import { createPageTokenSigner } from './page-token-signer';
import { createReleaseStateSource } from './release-state-source';
import { signedStateObjects } from './signed-state.fixture';

const INDEX =
  '<!doctype html><html lang=en dir=ltr><head><title>Special Gift</title><script defer src=/main.1.js></script></head><body><div id=root></div></body></html>';
const TEMPLATE = toPageTemplate(INDEX, 1, '/page-loader.1.js');
const REMOTES = {
  intro: 'http://intro.test/remoteEntry.js',
  signup: 'http://cdn.test/signup/remoteEntry.js',
  thankyou: 'http://thanks.test/remoteEntry.js',
};
const FRAGMENT =
  '<link rel="stylesheet" href="<!--# echo var="sg_screen_files" -->/screen.css"><div data-sg-screen="signup">Bonjour</div>';

/** A composer whose every request `respond` answers; with `apiOrigin`, the API's too. */
function composer(
  respond: (url: string, signal: AbortSignal, init?: RequestInit) => Promise<Response>,
  clock = { now: 0 },
  apiOrigin?: string,
) {
  const fetch = jest.fn((url: string | URL | Request, init?: RequestInit) =>
    respond(String(url), init?.signal as AbortSignal, init),
  );
  return {
    fetch,
    compose: createPageComposer({
      template: async () => TEMPLATE,
      remotes: REMOTES,
      defaultLanguage: 'en',
      apiOrigin,
      fetch: fetch as unknown as typeof globalThis.fetch,
      now: () => clock.now,
    }),
  };
}

describe('pageVariables', () => {
  it("chooses the route's remote and the language: cookie, then Accept-Language, then the default", () => {
    expect(pageVariables({ path: '/sign-up', acceptLanguage: 'fr-CA,fr;q=0.9' }, 'en')).toEqual({
      sg_screen: 'signup',
      sg_lang: 'fr',
      sg_dir: 'ltr',
    });
    expect(pageVariables({ path: '/', cookieHeader: 'a=1; sg_lang=ar', acceptLanguage: 'fr' }, 'en')).toEqual({
      sg_screen: 'intro',
      sg_lang: 'ar',
      sg_dir: 'rtl',
    });
    expect(pageVariables({ path: '/nope', cookieHeader: 'sg_lang=de', acceptLanguage: 'de, es' }, 'fr')).toEqual({
      sg_screen: '',
      sg_lang: 'fr',
      sg_dir: 'ltr',
    });
    expect(pageVariables({ path: '/thank-you', acceptLanguage: 'fr;q=0, ar;q=0.2' }, 'en').sg_lang).toBe('ar');
  });

  it('takes the folder of a remoteEntry.js as the remote base', () => {
    expect(remoteBase('http://cdn.test/signup/remoteEntry.js')).toBe('http://cdn.test/signup');
  });
});

describe('createPageComposer', () => {
  it("puts the route's fragment, in the page's language, inside the shell's page frame, its stylesheet through the host", async () => {
    const { compose, fetch } = composer(async () => new Response(FRAGMENT, { status: 200 }));
    const page = await compose({ path: '/sign-up', acceptLanguage: 'fr' });
    expect(fetch).toHaveBeenCalledWith('http://cdn.test/signup/prerender/v1/fr.html', expect.anything());
    expect(page).toContain('<html lang="fr" dir="ltr" data-sg-builds="" data-sg-integrity="">');
    expect(page).toContain(
      '<div id="root"><div class="sg-shell-page sg-shell-page--root"><link rel="stylesheet" href="/_screen-files/signup/screen.css"><div data-sg-screen="signup">Bonjour</div></div></div>',
    );
  });

  it('sends the page without the fragment when it is missing, fails or is refused', async () => {
    for (const respond of [
      async () => new Response('Not found', { status: 404 }),
      async () => new Response('oops', { status: 500 }),
      () => Promise.reject(new TypeError('fetch failed')),
    ]) {
      const page = await composer(respond).compose({ path: '/sign-up' });
      expect(page).toContain('<div id="root"><div class="sg-shell-page sg-shell-page--root"></div></div>');
    }
  });

  it(`gives up on a fragment after ${FRAGMENT_TIMEOUT_MS} ms`, async () => {
    const started = Date.now();
    const { compose } = composer(
      (_url, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    );
    expect(await compose({ path: '/' })).not.toContain('data-sg-screen');
    expect(Date.now() - started).toBeGreaterThanOrEqual(FRAGMENT_TIMEOUT_MS - 20);
    expect(Date.now() - started).toBeLessThan(FRAGMENT_TIMEOUT_MS + 1_000);
  });

  it(`keeps a fragment ${FRAGMENT_CACHE_SECONDS} s, then fetches it again`, async () => {
    const clock = { now: 0 };
    let body = FRAGMENT;
    const { compose, fetch } = composer(async () => new Response(body, { status: 200 }), clock);
    await compose({ path: '/sign-up' });
    body = body.replace('Bonjour', 'Hello');
    clock.now += FRAGMENT_CACHE_SECONDS * 1000 - 1;
    expect(await compose({ path: '/sign-up' })).toContain('Bonjour');
    clock.now += 2;
    expect(await compose({ path: '/sign-up' })).toContain('Hello');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failure: the next page asks again', async () => {
    let status = 500;
    const { compose, fetch } = composer(async () => new Response(FRAGMENT, { status }));
    expect(await compose({ path: '/sign-up' })).not.toContain('data-sg-screen');
    status = 200;
    expect(await compose({ path: '/sign-up' })).toContain('data-sg-screen');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('fetches nothing for a path that is not a screen', async () => {
    const { compose, fetch } = composer(async () => new Response(FRAGMENT));
    expect(await compose({ path: '/elsewhere', acceptLanguage: 'ar' })).toContain(
      '<html lang="ar" dir="rtl" data-sg-builds="" data-sg-integrity="">',
    );
    expect(await compose({ path: '/elsewhere', acceptLanguage: 'ar' })).toContain('<body><div id="root"></div>');
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("the page's own script", () => {
  it('is the one bootstrap in the head, and a fragment is never SSI-processed', async () => {
    const hostile =
      '<div data-sg-screen="signup"><script>steal()</script><!--# echo var="sg_builds" -->' +
      '<!--# include virtual="/api/v1/secret" --></div>';
    const { compose } = composer(async () => new Response(hostile));
    const page = await compose({ path: '/sign-up' });
    expect(page).toContain(
      `<title>Special Gift</title><script>${pageBootstrapScript('/page-loader.1.js', '/main.1.js')}</script></head>`,
    );
    expect(page).toContain(hostile);
  });

  it('makes two pages of one bucket and language the same bytes (nothing per response)', async () => {
    const { compose } = composer(async () => new Response(FRAGMENT));
    const request = { path: '/sign-up', bucket: 4, acceptLanguage: 'fr' };
    expect(await compose(request)).toBe(await compose(request));
  });
});

describe('createPageComposer with releases (the API at api.test)', () => {
  const SIGNUP_BUILD = '0123456789ab';
  const releasedComposer = (snapshot: () => Promise<Response>, clock = { now: 0 }) =>
    composer(
      async (url, _signal, init) =>
        url.startsWith('http://api.test/')
          ? snapshot()
          : new Response(FRAGMENT.replace('Bonjour', `from ${url} ${JSON.stringify(init?.headers ?? {})}`)),
      clock,
      'http://api.test',
    );
  const answer = (builds: string, cacheControl = 'public, max-age=1', integrity = '') =>
    new Response('{}', {
      headers: { 'Sg-Builds': builds, 'Sg-Integrity': integrity, 'Cache-Control': cacheControl },
    });

  it("carries the snapshot's integrity on <html>, as the API sent it", async () => {
    const integrity = `signup/remoteEntry.js=sha384-${'A'.repeat(64)}`;
    const { compose } = releasedComposer(async () => answer(`signup=${SIGNUP_BUILD}`, undefined, integrity));
    expect(await compose({ path: '/sign-up', bucket: 2 })).toContain(`data-sg-integrity="${integrity}"`);
  });

  it("composes the route's screen from the build in the snapshot and carries the snapshot on <html>", async () => {
    const { compose, fetch } = releasedComposer(async () => answer(`intro=aaaaaaaaaaaa,signup=${SIGNUP_BUILD}`));
    const page = await compose({ path: '/sign-up', acceptLanguage: 'fr', bucket: 7 });
    expect(fetch).toHaveBeenCalledWith('http://api.test/v1/releases/snapshot?bucket=7', expect.anything());
    expect(page).toContain(`data-sg-builds="intro=aaaaaaaaaaaa,signup=${SIGNUP_BUILD}"`);
    expect(page).toContain(`from http://cdn.test/signup/builds/${SIGNUP_BUILD}/prerender/v1/fr.html`);
    expect(page).toContain(`href="/_screen-files/signup/builds/${SIGNUP_BUILD}/screen.css"`);
  });

  it("uses each remote's own build when the snapshot names none of them", async () => {
    const { compose } = releasedComposer(async () => answer('intro=aaaaaaaaaaaa'));
    const page = await compose({ path: '/sign-up', bucket: 1 });
    expect(page).toContain('from http://cdn.test/signup/prerender/v1/en.html');
    expect(page).toContain('href="/_screen-files/signup/screen.css"');
  });

  it(`keeps a snapshot ${FRAGMENT_CACHE_SECONDS} s per bucket, and the last one while the API fails`, async () => {
    const clock = { now: 0 };
    let reply: () => Promise<Response> = async () => answer(`signup=${SIGNUP_BUILD}`);
    const { compose, fetch } = releasedComposer(() => reply(), clock);
    await compose({ path: '/', bucket: 3 });
    await compose({ path: '/', bucket: 3 });
    await compose({ path: '/', bucket: 4 });
    const snapshotCalls = () =>
      fetch.mock.calls.filter(([url]) => String(url).startsWith('http://api.test/v1/releases/snapshot')).length;
    expect(snapshotCalls()).toBe(2);
    clock.now += FRAGMENT_CACHE_SECONDS * 1000 + 1;
    reply = async () => new Response('down', { status: 503 });
    expect(await compose({ path: '/', bucket: 3 })).toContain(`data-sg-builds="signup=${SIGNUP_BUILD}"`);
    expect(await compose({ path: '/', bucket: 5 })).toContain('data-sg-builds=""');
  });

  it("sends only the preview cookie on, and never keeps a preview's answer", async () => {
    const { compose, fetch } = releasedComposer(async () => answer(`signup=${SIGNUP_BUILD}`, 'private, no-store'));
    await compose({ path: '/', bucket: 2, cookieHeader: 'sg_lang=fr; sg_preview=signup.x.1.sig; other=1' });
    await compose({ path: '/', bucket: 2, cookieHeader: 'sg_preview=signup.x.1.sig' });
    const calls = fetch.mock.calls.filter(([url]) => String(url).startsWith('http://api.test/v1/releases/snapshot'));
    expect(calls).toHaveLength(2);
    expect(calls[0]?.[1]?.headers).toEqual({ cookie: 'sg_preview=signup.x.1.sig' });
  });
});

describe("createPageComposer: a page's token from the API (at api.test)", () => {
  const BUILDS = 'signup=0123456789ab';
  const TOKEN = `${'A'.repeat(22)}.1764000000.7.${BUILDS}.${'m'.repeat(43)}`;
  const tokenComposer = (token: (signal: AbortSignal) => Promise<Response>) =>
    composer(
      async (url, signal) => {
        if (url.startsWith('http://api.test/v1/telemetry/page-token')) return token(signal);
        if (url.startsWith('http://api.test/')) return new Response('{}', { headers: { 'Sg-Builds': BUILDS } });
        return new Response(FRAGMENT);
      },
      undefined,
      'http://api.test',
    );

  it("asks the API for a page's token with its bucket, the page's builds and the visitor's address", async () => {
    const { compose, fetch } = tokenComposer(async () => new Response(TOKEN));
    const request = { bucket: 7, builds: BUILDS, clientAddress: '192.0.2.9' };
    expect(await compose.pageToken(request)).toEqual({ token: TOKEN });
    const asked = fetch.mock.calls.filter(([url]) => String(url).includes('/page-token'));
    expect(asked.map(([url]) => String(url))).toEqual(['http://api.test/v1/telemetry/page-token?bucket=7']);
    expect(asked[0]?.[1]?.headers).toEqual({ 'sg-builds': BUILDS, 'x-forwarded-for': '192.0.2.9' });
  });

  it('gives none when the API refuses, answers junk or is slow, and none to a preview', async () => {
    const answers: Array<(signal: AbortSignal) => Promise<Response>> = [
      async () => new Response('{"error":{}}', { status: 429 }),
      async () => new Response('"><script>steal()</script>'),
      () => Promise.reject(new TypeError('fetch failed')),
      (signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
    ];
    for (const answer of answers) {
      const started = Date.now();
      expect(await tokenComposer(answer).compose.pageToken({ bucket: 7, builds: BUILDS })).toEqual({
        refused: 'not_issued',
      });
      expect(Date.now() - started).toBeLessThan(PAGE_TOKEN.timeoutMs + 1_000);
    }
    const { compose, fetch } = tokenComposer(async () => new Response(TOKEN));
    expect(await compose.pageToken({ bucket: 7, builds: BUILDS, cookieHeader: 'sg_preview=abc' })).toEqual({
      refused: 'preview',
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('pageBucket', () => {
  it("keeps the browser's bucket", () => {
    expect(pageBucket('a=1; sg_bucket=42')).toEqual({ bucket: 42 });
    expect(pageBucket('sg_bucket=0')).toEqual({ bucket: 0 });
  });

  it('gives a new browser, or one with a malformed bucket, a bucket from 0 to 99 in a cookie', () => {
    for (const header of [undefined, 'sg_bucket=100', 'sg_bucket=07', 'sg_bucket=x']) {
      const { bucket, setCookie } = pageBucket(header);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(100);
      expect(setCookie).toBe(`sg_bucket=${bucket}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly`);
    }
  });
});

describe('createScreenFiles (a remote file through the host)', () => {
  const files = (respond: (url: string, signal: AbortSignal) => Promise<Response>) => {
    const fetch = jest.fn((url: string | URL | Request, init?: RequestInit) =>
      respond(String(url), init?.signal as AbortSignal),
    );
    return {
      fetch,
      screenFile: createScreenFiles({ remotes: REMOTES, fetch: fetch as unknown as typeof globalThis.fetch }),
    };
  };

  it("passes the remote's file through, with its type and caching", async () => {
    const { screenFile, fetch } = files(
      async () =>
        new Response('.a{}', {
          status: 200,
          headers: { 'Content-Type': 'text/css', 'Cache-Control': 'public, max-age=31536000, immutable' },
        }),
    );
    const answer = await screenFile('signup', '__federation_expose_Screen.1234abcd.css');
    expect(fetch).toHaveBeenCalledWith(
      'http://cdn.test/signup/__federation_expose_Screen.1234abcd.css',
      expect.anything(),
    );
    expect(answer).toMatchObject({
      status: 200,
      contentType: 'text/css',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(new TextDecoder().decode(answer.body)).toBe('.a{}');
  });

  it('answers an empty 204 when the remote fails or passes the bound: a stylesheet never holds the page', async () => {
    expect((await files(async () => new Response('no', { status: 500 })).screenFile('intro', 'a.css')).status).toBe(
      204,
    );
    const hung = files(
      (_url, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
    );
    expect((await hung.screenFile('intro', 'a.css')).status).toBe(204);
  });

  it('serves only the listed remotes, and no path outside them', async () => {
    const { screenFile, fetch } = files(async () => new Response('x'));
    expect((await screenFile('other', 'a.css')).status).toBe(404);
    expect((await screenFile('intro', '../secret')).status).toBe(404);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('composing with the API down: the state from the build store, the token signed here', () => {
  const KEY = { id: 'k1', secret: 'state-key-0123456789abcdefghijklmnop' };
  const TOKEN_KEY = new TextEncoder().encode('t'.repeat(32));
  const SRI = `sha384-${'A'.repeat(64)}`;

  /** A store holding one signed state: signup released as 0123456789ab, canary ba9876543210 at 50 %. */
  function store(): Map<string, string> {
    const state: ReleaseState = {
      format: STATE_FORMAT,
      environment: 'production',
      serial: 3,
      createdAt: '2026-12-01T10:00:00.000Z',
      remotes: {
        signup: {
          live: '0123456789ab',
          canary: 'ba9876543210',
          canaryPercent: 50,
          revision: 4,
          integrity: { '0123456789ab': { 'remoteEntry.js': SRI }, ba9876543210: { 'remoteEntry.js': SRI } },
        },
      },
    };
    return new Map(signedStateObjects(state, KEY));
  }

  function offlineComposer() {
    const objects = store();
    const fetch = jest.fn(async (url: string | URL | Request) =>
      String(url).startsWith('http://api.test/')
        ? Promise.reject(new TypeError('fetch failed: the API is down'))
        : new Response(FRAGMENT),
    );
    const compose = createPageComposer({
      template: async () => TEMPLATE,
      remotes: REMOTES,
      defaultLanguage: 'en',
      apiOrigin: 'http://api.test',
      releaseState: createReleaseStateSource({
        read: async (key) => objects.get(key),
        environment: 'production',
        keys: [KEY],
      }),
      signPageToken: createPageTokenSigner({ keys: [TOKEN_KEY], environment: 'production', perMinute: 2 }),
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    const apiCalls = () => fetch.mock.calls.filter(([url]) => String(url).startsWith('http://api.test/'));
    return { compose, apiCalls };
  }
  const tokenOf = (answer: { token: string } | { refused: string }) => ('token' in answer ? answer.token : '');

  it("composes each bucket's builds with their hashes, and signs tokens the API's key verifies, asking the API nothing", async () => {
    const { compose, apiCalls } = offlineComposer();
    const canary = await compose({ path: '/sign-up', bucket: 7 });
    const live = await compose({ path: '/sign-up', bucket: 50 });
    expect(canary).toContain(`data-sg-builds="signup=ba9876543210" data-sg-integrity="signup/remoteEntry.js=${SRI}"`);
    expect(live).toContain('data-sg-builds="signup=0123456789ab"');
    const answer = await compose.pageToken({ bucket: 7, builds: 'signup=ba9876543210', clientAddress: '198.51.100.4' });
    const token = parsePageToken(tokenOf(answer));
    expect(token?.claims).toMatchObject({ bucket: 7, builds: 'signup=ba9876543210' });
    const mac = createHmac('sha256', TOKEN_KEY)
      .update(pageTokenPayload('production', token!.claims))
      .digest('base64url');
    expect(token?.mac).toBe(mac);
    expect(apiCalls()).toEqual([]);
  });

  it("signs only for the builds the bucket gets now: another bucket's, or an older page's, get none", async () => {
    const { compose } = offlineComposer();
    expect(await compose.pageToken({ bucket: 50, builds: 'signup=ba9876543210' })).toEqual({
      refused: 'builds_not_served',
    });
    expect(await compose.pageToken({ bucket: 7, builds: '' })).toEqual({ refused: 'builds_not_served' });
  });

  it('gives an address its per-minute tokens, then none', async () => {
    const { compose } = offlineComposer();
    const answers = [];
    for (let page = 0; page < 3; page += 1)
      answers.push(
        await compose.pageToken({ bucket: 60, builds: 'signup=0123456789ab', clientAddress: '198.51.100.4' }),
      );
    expect(answers.map((answer) => tokenOf(answer) !== '')).toEqual([true, true, false]);
    const other = await compose.pageToken({ bucket: 60, builds: 'signup=0123456789ab', clientAddress: '203.0.113.1' });
    expect(tokenOf(other)).not.toBe('');
  });

  it("a preview's page asks the API for its builds and gets no token; the API down, its image builds", async () => {
    const { compose, apiCalls } = offlineComposer();
    const page = await compose({ path: '/sign-up', bucket: 7, cookieHeader: 'sg_preview=abc' });
    expect(apiCalls().map(([url]) => String(url))).toEqual(['http://api.test/v1/releases/snapshot?bucket=7']);
    expect(page).toContain('data-sg-builds=""');
    expect(await compose.pageToken({ bucket: 7, builds: '', cookieHeader: 'sg_preview=abc' })).toEqual({
      refused: 'preview',
    });
  });
});
