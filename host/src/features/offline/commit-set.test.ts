/** @jest-environment node */
// Node's Response (jsdom has none): the worker's own objects, without a browser.
import { CACHE, commitSet, countRefusal, MAX_SET_BYTES, META_KEY, REFUSALS_KEY } from './offline-set';

/** Cache Storage in memory, with a write that can be made to fail as a full disk does. */
function fakeCaches(failOn?: string) {
  const stores = new Map<string, Map<string, Response>>();
  const writes: string[] = [];
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, store);
    return {
      put: async (url: string, response: Response) => {
        if (url === failOn) throw Object.assign(new Error('full'), { name: 'QuotaExceededError' });
        writes.push(`${name} ${url}`);
        store.set(url, response);
      },
      match: async (url: string) => store.get(url),
      delete: async (url: string) => store.delete(url),
    } as unknown as Cache;
  };
  const storage = { open, delete: async (name: string) => stores.delete(name) };
  return { storage, stores, writes };
}

const file = (cacheName: string, url: string) => ({ cacheName, url, response: new Response(url) });
const SET = [
  file(CACHE.shell, '/config.json'),
  file(CACHE.image, 'https://intro.example/remoteEntry.js'),
  file(CACHE.pages, '/'),
  file(CACHE.pages, '/sign-up'),
];

describe("a refreshed set's last step", () => {
  it('writes the files that change in place, then the pages, once the rest is kept', async () => {
    const { storage, writes } = fakeCaches();
    expect(await commitSet(storage, SET, 1_061_457)).toBe('kept');
    expect(writes).toEqual([
      'sg-shell /config.json',
      'sg-image https://intro.example/remoteEntry.js',
      'sg-pages /',
      'sg-pages /sign-up',
    ]);
  });

  it('writes nothing of a set over the stated bound', async () => {
    const { storage, writes } = fakeCaches();
    expect(await commitSet(storage, SET, MAX_SET_BYTES + 1)).toBe('too-large');
    expect(writes).toEqual([]);
  });

  it('with no room left, drops the pages and the set description: no page whose files are missing', async () => {
    const { storage, stores } = fakeCaches('/sign-up');
    const meta = await storage.open(CACHE.meta);
    await meta.put(META_KEY, new Response('{}'));
    await (await storage.open(CACHE.pages)).put('/thank-you', new Response('old set'));
    expect(await commitSet(storage, SET, 1_000)).toBe('no-room');
    expect(stores.has(CACHE.pages)).toBe(false);
    expect(await meta.match(META_KEY)).toBeUndefined();
  });

  it('any other failure is the refresh failing, as before', async () => {
    const { storage } = fakeCaches();
    const broken = { ...storage, open: async () => Promise.reject(new TypeError('closed')) };
    await expect(commitSet(broken, SET, 1_000)).rejects.toThrow('closed');
  });

  it('counts each refusal by its reason', async () => {
    const meta = await fakeCaches().storage.open(CACHE.meta);
    await countRefusal(meta, 'too-large');
    await countRefusal(meta, 'too-large');
    await countRefusal(meta, 'no-room');
    expect(await (await meta.match(REFUSALS_KEY))?.json()).toEqual({ 'too-large': 2, 'no-room': 1 });
  });
});
