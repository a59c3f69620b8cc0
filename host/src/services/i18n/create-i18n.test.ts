import { act, render, waitFor } from '@testing-library/react';
import { createElement, Suspense } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { createMemoryStorage } from '@special-gift/shared/testing';
import ar from '../../../public/assets/i18n/ar.json';
import en from '../../../public/assets/i18n/en.json';
import fr from '../../../public/assets/i18n/fr.json';
import type * as CreateI18nModule from './create-i18n';

// A remote's namespace, as a remote origin would serve it.
const introEn = { headline: 'A gift card that feels special', getStarted: 'Get started' };
const introFr = { headline: 'Une carte cadeau vraiment spéciale', getStarted: 'Commencer' };

/** What the fake server answers, by URL; anything else is a 404. */
let files: Record<string, unknown>;
const serveFiles = async (url: string) => {
  const body = files[url];
  return body === undefined
    ? { ok: false, status: 404, statusText: 'Not Found', text: async () => '' }
    : { ok: true, status: 200, statusText: 'OK', text: async () => JSON.stringify(body) };
};
const fetchMock = jest.fn(serveFiles);
const fetchedUrls = () => fetchMock.mock.calls.map(([url]) => url);

let createI18n: typeof CreateI18nModule.createI18n;
let LANGUAGE_STORAGE_KEY: string;

beforeAll(async () => {
  Object.defineProperty(globalThis, 'fetch', { configurable: true, writable: true, value: fetchMock });
  ({ createI18n, LANGUAGE_STORAGE_KEY } = await import('./create-i18n'));
});

afterAll(() => {
  Reflect.deleteProperty(globalThis, 'fetch');
});

beforeEach(() => {
  fetchMock.mockClear();
  fetchMock.mockImplementation(serveFiles);
  files = { '/assets/i18n/en.json': en, '/assets/i18n/fr.json': fr, '/assets/i18n/ar.json': ar };
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
});

describe('createI18n', () => {
  it("starts in the stored language with the host's texts, English loaded as the fallback", async () => {
    const storage = createMemoryStorage({ [LANGUAGE_STORAGE_KEY]: 'fr' });
    const i18n = await createI18n({ storage, defaultLanguage: 'en', browserLanguages: ['ar'] });

    expect(i18n.current()).toBe('fr');
    expect(i18n.languages).toEqual(['en', 'fr', 'ar']);
    expect(i18n.instance.t('titles.notFound')).toBe('Page introuvable');
    expect(fetchedUrls()).toEqual(expect.arrayContaining(['/assets/i18n/fr.json', '/assets/i18n/en.json']));
    expect(document.documentElement).toHaveAttribute('lang', 'fr');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('uses the browser language when nothing is stored, and the default when that is unsupported', async () => {
    const fromBrowser = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['fr-CA'],
    });
    expect(fromBrowser.current()).toBe('fr');

    const fromDefault = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'fr',
      browserLanguages: ['de-DE'],
    });
    expect(fromDefault.current()).toBe('fr');
  });

  it('still starts when the stored choice cannot be read', async () => {
    const storage = createMemoryStorage();
    storage.get.mockRejectedValueOnce(new Error('blocked'));
    const i18n = await createI18n({ storage, defaultLanguage: 'en', browserLanguages: ['ar'] });
    expect(i18n.current()).toBe('ar');
  });

  it('sets <html lang dir> right to left for Arabic', async () => {
    const i18n = await createI18n({
      storage: createMemoryStorage({ language: 'ar' }),
      defaultLanguage: 'en',
      browserLanguages: [],
    });
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(i18n.instance.t('titles.notFound')).toBe(ar.titles.notFound);
  });

  it('changeLanguage switches the texts, stores the choice and updates <html lang dir>', async () => {
    const storage = createMemoryStorage();
    const i18n = await createI18n({ storage, defaultLanguage: 'en', browserLanguages: ['en-GB'] });
    expect(i18n.instance.t('titles.notFound')).toBe('Page not found');

    await i18n.changeLanguage('ar');
    expect(i18n.current()).toBe('ar');
    expect(i18n.instance.t('titles.notFound')).toBe(ar.titles.notFound);
    expect(storage.set).toHaveBeenCalledWith(LANGUAGE_STORAGE_KEY, 'ar');
    expect(storage.data.get(LANGUAGE_STORAGE_KEY)).toBe('ar');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');

    await i18n.changeLanguage('fr');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(storage.data.get(LANGUAGE_STORAGE_KEY)).toBe('fr');
  });

  it('falls back to English for a key missing (or empty) in the current language', async () => {
    files['/assets/i18n/fr.json'] = { greeting: 'Bonjour', onlyInEnglish: '' };
    files['/assets/i18n/en.json'] = {
      greeting: 'Hello',
      onlyInEnglish: 'Only in English',
      alsoOnlyInEnglish: 'Also English',
    };
    const i18n = await createI18n({
      storage: createMemoryStorage({ language: 'fr' }),
      defaultLanguage: 'en',
      browserLanguages: [],
    });
    expect(i18n.instance.t('greeting')).toBe('Bonjour');
    expect(i18n.instance.t('onlyInEnglish')).toBe('Only in English');
    expect(i18n.instance.t('alsoOnlyInEnglish')).toBe('Also English');
  });

  it('renders a key missing in every language as nothing, never as the raw key', async () => {
    const i18n = await createI18n({ storage: createMemoryStorage(), defaultLanguage: 'en', browserLanguages: ['fr'] });
    expect(i18n.instance.t('no.such.key')).toBe('');
  });

  it("loadNamespace fetches a remote's texts from that remote's origin", async () => {
    files['https://intro.example/assets/i18n/fr.json'] = introFr;
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    const i18n = await createI18n({
      storage: createMemoryStorage({ language: 'fr' }),
      defaultLanguage: 'en',
      browserLanguages: [],
    });
    fetchMock.mockClear();

    await i18n.loadNamespace('intro', 'https://intro.example');
    expect(fetchedUrls()).toEqual(
      expect.arrayContaining([
        'https://intro.example/assets/i18n/fr.json',
        'https://intro.example/assets/i18n/en.json',
      ]),
    );
    expect(fetchedUrls().every((url) => url.startsWith('https://intro.example/'))).toBe(true);
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introFr.headline);

    // Switching language loads the remote's texts in the new language from the same origin.
    files['https://intro.example/assets/i18n/ar.json'] = { headline: 'عنوان' };
    await i18n.changeLanguage('ar');
    expect(fetchedUrls()).toContain('https://intro.example/assets/i18n/ar.json');
    expect(fetchedUrls()).toContain('/assets/i18n/ar.json');
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe('عنوان');
  });

  it("loads the first screen's namespace together with the host's, in one round of requests", async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    let answer: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    // Hold every answer: both files must be asked for before either arrives.
    fetchMock.mockImplementation(async (url: string) => {
      await gate;
      return serveFiles(url);
    });
    const ready = createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      namespaces: { intro: 'https://intro.example' },
    });
    // Both asked for while no answer has arrived (the gate is still shut).
    await waitFor(() =>
      expect(fetchedUrls().sort()).toEqual(['/assets/i18n/en.json', 'https://intro.example/assets/i18n/en.json']),
    );
    answer();
    const i18n = await ready;
    fetchMock.mockClear();
    await i18n.loadNamespace('intro', 'https://intro.example'); // already there: no request
    expect(fetchedUrls()).toEqual([]);
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introEn.headline);
  });

  it('keeps a base URL that already ends with a slash as it is', async () => {
    files['https://cdn.example/intro/assets/i18n/en.json'] = introEn;
    const i18n = await createI18n({ storage: createMemoryStorage(), defaultLanguage: 'en', browserLanguages: ['en'] });
    await i18n.loadNamespace('intro', 'https://cdn.example/intro/');
    expect(fetchedUrls()).toContain('https://cdn.example/intro/assets/i18n/en.json');
    expect(i18n.instance.t('getStarted', { ns: 'intro' })).toBe('Get started');
  });
});

describe('createI18n: each namespace loads and fails on its own', () => {
  const noRetry = { retryDelaysMs: [] };

  it("a remote whose texts never arrive does not hold back another remote's texts", async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    const i18n = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      texts: noRetry,
    });
    fetchMock.mockImplementation(async (url: string) =>
      url.startsWith('https://signup.example/') ? new Promise(() => undefined) : serveFiles(url),
    );

    const signup = i18n.loadNamespace('signup', 'https://signup.example/');
    signup.catch(() => undefined);
    await i18n.loadNamespace('intro', 'https://intro.example/');
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introEn.headline);
  });

  it('rejects when neither the language nor English can be had, and loads again on the next call', async () => {
    const i18n = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      texts: noRetry,
    });
    await expect(i18n.loadNamespace('intro', 'https://intro.example/')).rejects.toThrow('HTTP 404');

    files['https://intro.example/assets/i18n/en.json'] = introEn;
    await i18n.loadNamespace('intro', 'https://intro.example/');
    expect(i18n.instance.t('getStarted', { ns: 'intro' })).toBe('Get started');
  });

  it('a file failing in the current language falls back to English at once, without raw keys', async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn; // no fr.json: 404
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const i18n = await createI18n({
      storage: createMemoryStorage({ language: 'fr' }),
      defaultLanguage: 'en',
      browserLanguages: [],
      texts: noRetry,
    });
    await i18n.loadNamespace('intro', 'https://intro.example/');
    expect(i18n.current()).toBe('fr');
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introEn.headline);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"intro" texts in fr'), expect.anything());
    warn.mockRestore();
  });

  it('a fresh load does not join a request in flight, and skips the HTTP cache', async () => {
    const i18n = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      texts: noRetry,
    });
    fetchMock.mockImplementationOnce(() => new Promise(() => undefined)); // the first request hangs
    const stuck = i18n.loadNamespace('intro', 'https://intro.example/');
    stuck.catch(() => undefined);
    files['https://intro.example/assets/i18n/en.json'] = introEn;

    await i18n.loadNamespace('intro', 'https://intro.example/', { fresh: true });
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introEn.headline);
    expect(fetchMock.mock.calls.at(-1)).toEqual([
      'https://intro.example/assets/i18n/en.json',
      expect.objectContaining({ cache: 'no-store' }),
    ]);
  });

  it("the host's own texts failing in every language stops start-up (the start-up failure screen says so)", async () => {
    files = {};
    await expect(
      createI18n({ storage: createMemoryStorage(), defaultLanguage: 'en', browserLanguages: ['en'], texts: noRetry }),
    ).rejects.toThrow('HTTP 404');
  });

  it('changeLanguage switches even when one remote has no file in the new language (English stays for it)', async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const i18n = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      texts: noRetry,
    });
    await i18n.loadNamespace('intro', 'https://intro.example/');
    await i18n.changeLanguage('fr');
    expect(i18n.current()).toBe('fr');
    expect(i18n.instance.t('titles.notFound')).toBe(fr.titles.notFound);
    expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introEn.headline);
    warn.mockRestore();
  });
  it("a remote's texts still loading when the language is switched follow in the new language", async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    files['https://intro.example/assets/i18n/fr.json'] = introFr;
    const i18n = await createI18n({
      storage: createMemoryStorage(),
      defaultLanguage: 'en',
      browserLanguages: ['en'],
      texts: noRetry,
    });
    let answerEnglish = () => undefined as void;
    fetchMock.mockImplementation(async (url: string) =>
      url === 'https://intro.example/assets/i18n/en.json'
        ? new Promise((resolve) => (answerEnglish = () => resolve(serveFiles(url))))
        : serveFiles(url),
    );

    const intro = i18n.loadNamespace('intro', 'https://intro.example/'); // the preload, in flight
    await i18n.changeLanguage('fr');
    answerEnglish();
    await intro;
    await waitFor(() => expect(i18n.instance.t('headline', { ns: 'intro' })).toBe(introFr.headline));
    expect(fetchedUrls()).toContain('https://intro.example/assets/i18n/fr.json');
  });

  it('a switch re-renders the screens once: the next language arrives silently, then shows', async () => {
    files['https://intro.example/assets/i18n/en.json'] = introEn;
    files['https://intro.example/assets/i18n/fr.json'] = introFr;
    const i18n = await createI18n({ storage: createMemoryStorage(), defaultLanguage: 'en', browserLanguages: ['en'] });
    await i18n.loadNamespace('intro', 'https://intro.example/');
    let renders = 0;
    function Headline() {
      const { t } = useTranslation(['intro', 'common']);
      renders += 1;
      return createElement('h1', null, t('headline'));
    }
    const view = render(
      createElement(
        I18nextProvider,
        { i18n: i18n.instance },
        createElement(Suspense, { fallback: null }, createElement(Headline)),
      ),
    );
    expect(view.getByRole('heading')).toHaveTextContent(introEn.headline);
    const before = renders;
    await act(() => i18n.changeLanguage('fr'));
    expect(view.getByRole('heading')).toHaveTextContent(introFr.headline);
    // Two files arrived (common and intro in French): neither re-rendered the English screen.
    expect(renders - before).toBe(1);
    view.unmount();
  });
});
