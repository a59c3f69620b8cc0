import { FRAGMENT_CACHE_SECONDS, FRAGMENT_TIMEOUT_MS, toPageTemplate } from '@special-gift/shared/composition';
import { createPageComposer, pageVariables, remoteBase } from './compose-page';

const INDEX = '<!doctype html><html lang=en dir=ltr><head><title>Special Gift</title></head><body><div id=root></div></body></html>';
const TEMPLATE = toPageTemplate(INDEX, 1);
const REMOTES = { intro: 'http://intro.test/remoteEntry.js', signup: 'http://cdn.test/signup/remoteEntry.js', thankyou: 'http://thanks.test/remoteEntry.js' };
const FRAGMENT = '<link rel="stylesheet" href="<!--# echo var="sg_remote_base" -->/screen.css"><div data-sg-screen="signup">Bonjour</div>';

function composer(respond: (url: string, signal: AbortSignal) => Promise<Response>, clock = { now: 0 }) {
  const fetch = jest.fn((url: string | URL | Request, init?: RequestInit) => respond(String(url), init?.signal as AbortSignal));
  return { fetch, compose: createPageComposer({ template: async () => TEMPLATE, remotes: REMOTES, defaultLanguage: 'en', fetch: fetch as unknown as typeof globalThis.fetch, now: () => clock.now }) };
}

describe('pageVariables', () => {
  it("chooses the route's remote and the language: cookie, then Accept-Language, then the default", () => {
    expect(pageVariables({ path: '/sign-up', acceptLanguage: 'fr-CA,fr;q=0.9' }, 'en')).toEqual({ sg_screen: 'signup', sg_lang: 'fr', sg_dir: 'ltr' });
    expect(pageVariables({ path: '/', cookieHeader: 'a=1; sg_lang=ar', acceptLanguage: 'fr' }, 'en')).toEqual({ sg_screen: 'intro', sg_lang: 'ar', sg_dir: 'rtl' });
    expect(pageVariables({ path: '/nope', cookieHeader: 'sg_lang=de', acceptLanguage: 'de, es' }, 'fr')).toEqual({ sg_screen: '', sg_lang: 'fr', sg_dir: 'ltr' });
    expect(pageVariables({ path: '/thank-you', acceptLanguage: 'fr;q=0, ar;q=0.2' }, 'en').sg_lang).toBe('ar');
  });

  it('takes the folder of a remoteEntry.js as the remote base', () => {
    expect(remoteBase('http://cdn.test/signup/remoteEntry.js')).toBe('http://cdn.test/signup');
  });
});

describe('createPageComposer', () => {
  it("puts the route's fragment, in the page's language, inside the shell's page frame, with the remote's base in its links", async () => {
    const { compose, fetch } = composer(async () => new Response(FRAGMENT, { status: 200 }));
    const page = await compose({ path: '/sign-up', acceptLanguage: 'fr' });
    expect(fetch).toHaveBeenCalledWith('http://cdn.test/signup/prerender/v1/fr.html', expect.anything());
    expect(page).toContain('<html lang="fr" dir="ltr">');
    expect(page).toContain('<div id="root"><div class="sg-shell-page sg-shell-page--root"><link rel="stylesheet" href="http://cdn.test/signup/screen.css"><div data-sg-screen="signup">Bonjour</div></div></div>');
  });

  it('sends the page without the fragment when it is missing, fails or is refused', async () => {
    for (const respond of [async () => new Response('Not found', { status: 404 }), async () => new Response('oops', { status: 500 }), () => Promise.reject(new TypeError('fetch failed'))]) {
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
    expect(await compose({ path: '/elsewhere', acceptLanguage: 'ar' })).toContain('<html lang="ar" dir="rtl"><head><title>Special Gift</title></head><body><div id="root"></div>');
    expect(fetch).not.toHaveBeenCalled();
  });
});
