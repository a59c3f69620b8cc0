import { CONTRACT_VERSION, type RemoteScreenModule } from '@special-gift/shared';
import { rejectionOf } from '@special-gift/shared/testing';
import { REMOTE_NAMES, type RemoteName } from '../../config/runtime-config';
import { RemoteLoadError } from './remote-load-error';
import { createRemoteScreens, DEFAULT_REMOTE_TIMEOUT_MS, type FederationRuntime } from './remote-screens';

/** What React's use() would read synchronously from a promise marked fulfilled. */
const fulfilledValue = (promise: Promise<unknown>) => {
  const marked = promise as Promise<unknown> & { status?: string; value?: unknown };
  return marked.status === 'fulfilled' ? marked.value : undefined;
};

const entries: Record<RemoteName, string> = {
  intro: 'https://intro.example/remoteEntry.js',
  signup: 'https://signup.example/remoteEntry.js',
  thankyou: 'https://thankyou.example/remoteEntry.js',
};

const screenModule = (namespace: string, contractVersion = CONTRACT_VERSION): RemoteScreenModule => ({
  default: () => null,
  meta: { contractVersion, namespace },
});

function setup(options: { timeoutMs?: number; retryDelayMs?: number } = {}) {
  const registerRemotes = jest.fn<void, Parameters<FederationRuntime['registerRemotes']>>();
  const loadRemote = jest.fn<Promise<unknown>, [id: string]>(async (id) => screenModule(id.split('/')[0] ?? ''));
  const runtime: FederationRuntime = {
    registerRemotes,
    loadRemote: <T>(id: string) => loadRemote(id) as Promise<T | null>,
  };
  const loadTexts = jest.fn<Promise<unknown>, [namespace: string, entryUrl: string, options: { fresh: boolean }]>(
    async () => undefined,
  );
  const screens = createRemoteScreens({ runtime, entries, loadTexts, retryDelayMs: 0, ...options });
  return { screens, registerRemotes, loadRemote, loadTexts };
}

const loadFailure = (promise: Promise<unknown>) => rejectionOf(promise, RemoteLoadError);

/** Lets the module's own bookkeeping of a settled attempt run (it is chained on the attempt). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('createRemoteScreens', () => {
  it('makes the federation runtime yield between the steps of a load and fetch entries with CORS, where it takes plugins', () => {
    const registerPlugins = jest.fn<void, [Array<{ name: string }>]>();
    createRemoteScreens({
      runtime: { registerRemotes: () => undefined, loadRemote: async () => null, registerPlugins },
      entries,
      loadTexts: async () => undefined,
    });
    expect(registerPlugins).toHaveBeenCalledWith([
      expect.objectContaining({ name: 'special-gift:yield-between-load-steps' }),
      expect.objectContaining({ name: 'special-gift:cors-entry-scripts' }),
    ]);
    const [, cors] = registerPlugins.mock.calls[0]?.[0] as unknown as Array<{
      createScript: (info: { url: string }) => HTMLScriptElement;
    }>;
    const script = cors?.createScript({ url: 'http://localhost:3001/remoteEntry.js' });
    expect(script?.src).toBe('http://localhost:3001/remoteEntry.js');
    expect(script?.crossOrigin).toBe('anonymous');
  });

  it('registers every remote with its manifest as soon as it is created', () => {
    const { registerRemotes, loadRemote } = setup();
    expect(registerRemotes).toHaveBeenCalledTimes(1);
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'intro', entry: entries.intro },
      { name: 'signup', entry: entries.signup },
      { name: 'thankyou', entry: entries.thankyou },
    ]);
    expect(loadRemote).not.toHaveBeenCalled();
  });

  it("loads a remote's ./Screen and its texts, with its namespace and entry URL", async () => {
    const { screens, loadRemote, loadTexts } = setup();
    const module = await screens.load('signup');
    expect(loadRemote).toHaveBeenCalledWith('signup/Screen');
    expect(loadTexts.mock.calls).toEqual([['signup', entries.signup, { fresh: false }]]);
    expect(module.meta.namespace).toBe('signup');
  });

  it('starts the texts with the code, not after it (the namespace is the remote name)', async () => {
    const { screens, loadRemote, loadTexts } = setup();
    let codeLoaded: (module: RemoteScreenModule) => void = () => undefined;
    loadRemote.mockImplementationOnce(() => new Promise((resolve) => (codeLoaded = resolve)));
    const loading = screens.load('intro');
    await settle();
    expect(loadTexts).toHaveBeenCalledWith('intro', entries.intro, { fresh: false });
    codeLoaded(screenModule('intro'));
    await loading;
    expect(loadTexts).toHaveBeenCalledTimes(1);
  });

  it('also loads a namespace the remote names differently', async () => {
    const { screens, loadRemote, loadTexts } = setup();
    loadRemote.mockResolvedValueOnce(screenModule('welcome'));
    await screens.load('intro');
    expect(loadTexts.mock.calls).toEqual([
      ['intro', entries.intro, { fresh: false }],
      ['welcome', entries.intro, { fresh: false }],
    ]);
  });

  it('does not resolve before the texts are loaded', async () => {
    const { screens, loadTexts } = setup();
    let textsLoaded: () => void = () => undefined;
    loadTexts.mockImplementationOnce(() => new Promise<void>((resolve) => (textsLoaded = resolve)));
    const resolved = jest.fn();
    void screens.load('intro').then(resolved);
    await settle();
    expect(resolved).not.toHaveBeenCalled();
    textsLoaded();
    await settle();
    expect(resolved).toHaveBeenCalledTimes(1);
  });

  it('caches a successful load: one loadRemote however often and however concurrently it is asked', async () => {
    const { screens, loadRemote } = setup();
    const first = screens.load('intro');
    const concurrent = screens.load('intro');
    expect(concurrent).toBe(first);
    const module = await first;
    await expect(screens.load('intro')).resolves.toBe(module);
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it("marks a loaded screen's promise fulfilled, so React's use() renders it without suspending", async () => {
    const { screens } = setup();
    const pending = screens.load('intro');
    expect(fulfilledValue(pending)).toBeUndefined();
    const module = await pending;
    expect(fulfilledValue(screens.load('intro'))).toBe(module);
  });

  it("reports a runtime that answers null as 'unavailable'", async () => {
    const { screens, loadRemote } = setup();
    loadRemote.mockResolvedValue(null);
    const error = await loadFailure(screens.load('thankyou'));
    expect(error.reason).toBe('unavailable');
    expect(error.remote).toBe('thankyou');
  });

  it("reports a runtime that keeps throwing as 'unavailable', keeping the cause, after one automatic retry", async () => {
    const { screens, loadRemote, loadTexts, registerRemotes } = setup();
    const cause = new Error('ScriptExternalLoadError');
    loadRemote.mockRejectedValue(cause);
    const error = await loadFailure(screens.load('intro'));
    expect(error.reason).toBe('unavailable');
    expect(error.cause).toBe(cause);
    expect(loadRemote).toHaveBeenCalledTimes(2);
    // The retry starts from a clean runtime entry under a new URL, so nothing of the failed load is reused.
    expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'intro', entry: `${entries.intro}?attempt=1` }], {
      force: true,
    });
    expect(loadTexts.mock.calls).toEqual([
      ['intro', entries.intro, { fresh: false }],
      ['intro', entries.intro, { fresh: false }],
    ]);
  });

  it('rides out a single transient failure: the automatic retry succeeds', async () => {
    const { screens, loadRemote } = setup();
    loadRemote.mockRejectedValueOnce(new Error('502 from a rolling deploy'));
    await expect(screens.load('signup')).resolves.toMatchObject({ meta: { namespace: 'signup' } });
    expect(loadRemote).toHaveBeenCalledTimes(2);
  });

  it("reports texts that cannot be loaded as 'unavailable' (the screen would show no words)", async () => {
    const { screens, loadTexts } = setup();
    const cause = new Error('every texts file failed');
    loadTexts.mockRejectedValue(cause);
    const error = await loadFailure(screens.load('thankyou'));
    expect(error.reason).toBe('unavailable');
    expect(error.cause).toBe(cause);
  });

  it("a failing remote's retry never holds another remote's load", async () => {
    const { screens, loadRemote } = setup({ retryDelayMs: 60_000 });
    loadRemote.mockImplementation(async (id) =>
      id === 'signup/Screen' ? Promise.reject(new Error('down')) : screenModule(id.split('/')[0] ?? ''),
    );
    const signup = screens.load('signup');
    signup.catch(() => undefined);
    await expect(screens.load('intro')).resolves.toMatchObject({ meta: { namespace: 'intro' } });
    await expect(screens.load('thankyou')).resolves.toMatchObject({ meta: { namespace: 'thankyou' } });
  });

  it('retry() starts a fresh attempt at once while one is still in flight: new entry URL, fresh texts', async () => {
    const { screens, loadRemote, loadTexts, registerRemotes } = setup();
    loadRemote.mockReturnValueOnce(new Promise(() => undefined)); // a server that never answers
    const stuck = screens.load('signup');
    await settle();
    const fresh = screens.retry('signup');
    expect(fresh).not.toBe(stuck);
    expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'signup', entry: `${entries.signup}?attempt=1` }], {
      force: true,
    });
    await expect(fresh).resolves.toMatchObject({ meta: { namespace: 'signup' } });
    expect(loadTexts).toHaveBeenLastCalledWith('signup', entries.signup, { fresh: true });
    expect(screens.load('signup')).toBe(fresh); // later loads use the fresh attempt, not the stuck one
  });

  it.each([
    ['another contract version', screenModule('intro', CONTRACT_VERSION + 1)],
    ['no default component', { meta: { contractVersion: CONTRACT_VERSION, namespace: 'intro' } }],
    ['no meta', { default: () => null }],
    [
      'a namespace that is not a string',
      { default: () => null, meta: { contractVersion: CONTRACT_VERSION, namespace: 7 } },
    ],
  ])("reports a module with %s as 'incompatible', without loading its namespace", async (_, module) => {
    const { screens, loadRemote, loadTexts } = setup();
    loadRemote.mockResolvedValueOnce(module);
    const error = await loadFailure(screens.load('intro'));
    expect(error.reason).toBe('incompatible');
    expect(loadRemote).toHaveBeenCalledTimes(1); // not retried: the same build would come back
    expect(loadTexts.mock.calls).toEqual([['intro', entries.intro, { fresh: false }]]); // only the one started with the code
  });

  it('re-registers a failed remote with force on the next load, and then succeeds', async () => {
    const { screens, registerRemotes, loadRemote } = setup();
    loadRemote.mockRejectedValueOnce(new Error('offline')).mockRejectedValueOnce(new Error('still offline'));
    await loadFailure(screens.load('signup'));
    await settle();
    expect(registerRemotes).toHaveBeenCalledTimes(2); // created, then the automatic retry

    const module = await screens.load('signup');
    expect(registerRemotes).toHaveBeenCalledTimes(3);
    expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'signup', entry: `${entries.signup}?attempt=2` }], {
      force: true,
    });
    expect(loadRemote).toHaveBeenCalledTimes(3);
    expect(fulfilledValue(screens.load('signup'))).toBe(module);

    // A success is not re-registered again.
    await screens.load('signup');
    expect(registerRemotes).toHaveBeenCalledTimes(3);
  });

  describe('timeout', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it(`gives up with 'timeout' after ${DEFAULT_REMOTE_TIMEOUT_MS} ms by default`, async () => {
      const { screens, loadRemote } = setup();
      loadRemote.mockReturnValueOnce(new Promise(() => undefined));
      const failed = jest.fn();
      const attempt = screens.load('intro');
      attempt.catch(failed);

      await jest.advanceTimersByTimeAsync(DEFAULT_REMOTE_TIMEOUT_MS - 1);
      expect(failed).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      const error = await loadFailure(attempt);
      expect(error.reason).toBe('timeout');
      expect(error.remote).toBe('intro');
    });

    it('honours a custom timeout, and a timed-out remote can be loaded again', async () => {
      const { screens, loadRemote, registerRemotes } = setup({ timeoutMs: 500 });
      loadRemote.mockReturnValueOnce(new Promise(() => undefined));
      const attempt = screens.load('thankyou');
      await jest.advanceTimersByTimeAsync(500);
      await expect(loadFailure(attempt)).resolves.toMatchObject({ reason: 'timeout' });

      await expect(screens.load('thankyou')).resolves.toMatchObject({ meta: { namespace: 'thankyou' } });
      expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'thankyou', entry: `${entries.thankyou}?attempt=1` }], {
        force: true,
      });
    });

    it('leaves no timer behind after a load that finished in time', async () => {
      const { screens } = setup();
      await screens.load('intro');
      expect(jest.getTimerCount()).toBe(0);
    });
  });

  describe('preloadAll', () => {
    it("loads every remote's code and texts", async () => {
      const { screens, loadRemote, loadTexts } = setup();
      await screens.preloadAll();
      expect(loadRemote.mock.calls.map(([id]) => id)).toEqual(REMOTE_NAMES.map((name) => `${name}/Screen`));
      expect(loadTexts).toHaveBeenCalledTimes(3);
      for (const name of REMOTE_NAMES) expect(fulfilledValue(screens.load(name))).toBeDefined();
    });

    it('never rejects: failures are logged and retried on the next load', async () => {
      const { screens, loadRemote } = setup();
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      loadRemote.mockImplementation(async (id) =>
        id === 'signup/Screen' ? Promise.reject(new Error('down')) : screenModule(id.split('/')[0] ?? ''),
      );

      await expect(screens.preloadAll()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('signup'), expect.any(RemoteLoadError));
      expect(fulfilledValue(screens.load('intro'))).toBeDefined();
      warn.mockRestore();
    });

    it('starts each remote in a task of its own (no one long task), an already loaded one without waiting', async () => {
      const { screens, loadRemote } = setup();
      await screens.load('intro');
      loadRemote.mockClear();
      const preloading = screens.preloadAll();
      // Microtasks only: the first remote not yet loaded has started, the next waits for a later task.
      for (let i = 0; i < 10; i++) await Promise.resolve();
      expect(loadRemote.mock.calls.map(([id]) => id)).toEqual(['signup/Screen']);
      await settle();
      expect(loadRemote.mock.calls.map(([id]) => id)).toEqual(['signup/Screen', 'thankyou/Screen']);
      await preloading;
    });

    it('does not start a second load for a remote a navigation started while the preload waited', async () => {
      const { screens, loadRemote } = setup();
      const preloading = screens.preloadAll(); // intro now, signup and thankyou in later tasks
      await settle(); // signup has started; thankyou waits for the next task
      expect(loadRemote.mock.calls.map(([id]) => id)).toEqual(['intro/Screen', 'signup/Screen']);
      const navigation = screens.load('thankyou');
      await preloading;
      await navigation;
      expect(loadRemote.mock.calls.filter(([id]) => id === 'thankyou/Screen')).toHaveLength(1);
    });

    it('reuses a load already in flight', async () => {
      const { screens, loadRemote } = setup();
      const first = screens.load('intro');
      await screens.preloadAll();
      await first;
      expect(loadRemote.mock.calls.filter(([id]) => id === 'intro/Screen')).toHaveLength(1);
    });
  });
});
