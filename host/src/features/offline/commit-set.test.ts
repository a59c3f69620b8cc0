/** @jest-environment node */
// Node's Response (jsdom has none): the worker's own objects, without a browser.
import {
  buildCacheName,
  CACHE,
  commitSet,
  countRefusal,
  MAX_SET_BYTES,
  META_KEY,
  recordRefused,
  REFUSALS_KEY,
  setBudget,
  SetTooLarge,
  snapshotOf,
  wasRefused,
} from './offline-set';

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
      match: async (url: string) => store.get(url)?.clone(),
      delete: async (request: string | Request) => store.delete(typeof request === 'string' ? request : request.url),
      keys: async () => [...store.keys()].map((url) => new Request(new URL(url, 'https://host.example/'))),
    } as unknown as Cache;
  };
  const storage = {
    open,
    delete: async (name: string) => stores.delete(name),
    keys: async () => [...stores.keys()],
  };
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

  it('with no room left, frees every build and hashed file too: no set names them any more', async () => {
    const { storage, stores } = fakeCaches('/sign-up');
    const base = 'https://signup.example/builds/0123456789ab/';
    await (await storage.open(buildCacheName(base))).put(`${base}remoteEntry.js`, new Response('x'));
    const shell = await storage.open(CACHE.shell);
    await shell.put('https://host.example/main.0a1b2c3d.js', new Response('x'));
    await shell.put('https://host.example/config.json', new Response('{}'));
    expect(await commitSet(storage, SET, 1_000)).toBe('no-room');
    expect(stores.has(buildCacheName(base))).toBe(false);
    expect(await shell.match('https://host.example/main.0a1b2c3d.js')).toBeUndefined();
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

  it('a set is stopped at the file that passes the bound, not after it is all fetched', () => {
    const budget = setBudget();
    budget.add(MAX_SET_BYTES - 10);
    budget.add(10); // exactly the bound: kept
    expect(() => budget.add(1)).toThrow(SetTooLarge);
    expect(budget.bytes).toBe(MAX_SET_BYTES + 1);
  });

  it('a snapshot refused as too large is remembered, so it is not fetched again; another is', async () => {
    const meta = await fakeCaches().storage.open(CACHE.meta);
    const refused = snapshotOf({ signup: '0123456789ab' }, ['/main.0a1b2c3d.js', '/app.11111111.css']);
    expect(await wasRefused(meta, refused)).toBe(false);
    await recordRefused(meta, refused);
    const same = snapshotOf({ signup: '0123456789ab' }, ['/app.11111111.css', '/main.0a1b2c3d.js']);
    expect(await wasRefused(meta, same)).toBe(true);
    expect(await wasRefused(meta, snapshotOf({ signup: 'ba9876543210' }, ['/main.0a1b2c3d.js']))).toBe(false);
  });
});
