/** @jest-environment node */
// Node's Request and Response (jsdom has none); a worker's globals as far as Workbox reads them.
import type { revalidated as Revalidated } from './revalidated';

// Workbox reads `self` as it loads: the worker's global, set before the import below.
Object.assign(globalThis, {
  self: globalThis,
  location: new URL('https://host.example/service-worker.js'),
  __WB_DISABLE_DEV_LOGS: true,
});
let revalidated: typeof Revalidated;
beforeAll(async () => {
  ({ revalidated } = await import('./revalidated'));
});

class ExtendableEvent {
  readonly waits: Promise<unknown>[] = [];
  waitUntil(promise: Promise<unknown>) {
    this.waits.push(promise);
  }
}

function workerGlobals() {
  const store = new Map<string, Response>();
  const cache = {
    put: jest.fn(async (request: Request | string, response: Response) => {
      store.set(typeof request === 'string' ? request : request.url, response);
    }),
    match: async (request: Request | string) => store.get(typeof request === 'string' ? request : request.url)?.clone(),
  };
  Object.assign(globalThis, {
    ExtendableEvent,
    FetchEvent: class extends ExtendableEvent {},
    caches: { open: async () => cache, match: cache.match },
  });
  return { store, cache };
}

describe('config.json, texts, an image build entry: network first, written only with their set', () => {
  const url = 'https://host.example/config.json';
  /** The strategy's answer, once its writes (if any) are done. */
  const handle = async (fetched: () => Promise<Response>) => {
    jest.spyOn(globalThis, 'fetch').mockImplementation(fetched);
    const event = new ExtendableEvent();
    const [response, done] = revalidated('sg-shell').handleAll({ request: new Request(url), event: event as never });
    await done;
    return response;
  };
  afterEach(() => jest.restoreAllMocks());

  it('online: the network answer, and nothing written into the kept set', async () => {
    const { cache } = workerGlobals();
    const response = await handle(async () => new Response('new', { status: 200 }));
    expect(await response.text()).toBe('new');
    expect(cache.put).not.toHaveBeenCalled();
  });

  it('offline: the copy the last kept set wrote', async () => {
    const { store } = workerGlobals();
    store.set(url, new Response('kept'));
    const response = await handle(() => Promise.reject(new TypeError('offline')));
    expect(await response.text()).toBe('kept');
  });
});
