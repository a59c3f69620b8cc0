import { imageBuildReplaced, MIN_RELOAD_INTERVAL_MS, newBuildAvailable, reloadSoon, SAVE_GRACE_MS } from './live-build';

const PAGE_BUILD = '0123456789ab';
const LIVE_BUILD = 'ba9876543210';

describe('moving a tab onto the live build (newBuildAvailable, then reloadSoon)', () => {
  const reload = jest.fn();
  /** What the host and a remote's error screen do: reload when there is a newer build. */
  const reloadOntoLiveBuild = async (remote: string, apiBase: string, reloadPage: () => void) => {
    if (!(await newBuildAvailable(remote, apiBase))) return false;
    await reloadSoon(reloadPage);
    return true;
  };
  let fetchMock: jest.Mock;
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    sessionStorage.clear();
    document.documentElement.setAttribute('data-sg-builds', `intro=aaaaaaaaaaaa,signup=${PAGE_BUILD}`);
    fetchMock = jest.fn();
    Object.assign(globalThis, { fetch: fetchMock });
    reload.mockClear();
  });
  afterEach(() => {
    jest.useRealTimers();
    document.documentElement.removeAttribute('data-sg-builds');
  });
  const liveIs = (builds: string, status = 200) =>
    // jsdom has no Response: the slice of it the function reads.
    fetchMock.mockResolvedValue({ ok: status < 300, headers: new Map([['sg-builds', builds]]) });

  it('reloads onto the live build once saves in flight have had their time', async () => {
    liveIs(`signup=${LIVE_BUILD}`);
    const moved = reloadOntoLiveBuild('signup', '/api/v1', reload);
    await jest.advanceTimersByTimeAsync(SAVE_GRACE_MS - 1);
    expect(reload).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await expect(moved).resolves.toBe(true);
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/releases/snapshot', { cache: 'no-store' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads when the remote went back to its own build (no release any more)', async () => {
    liveIs('intro=aaaaaaaaaaaa');
    const moved = reloadOntoLiveBuild('signup', '/api/v1', reload);
    await jest.runAllTimersAsync();
    await expect(moved).resolves.toBe(true);
  });

  it('stays when the live build is this one, the snapshot fails, or the remote runs its own build', async () => {
    liveIs(`signup=${PAGE_BUILD}`);
    await expect(reloadOntoLiveBuild('signup', '/api/v1', reload)).resolves.toBe(false);
    liveIs('', 503);
    await expect(reloadOntoLiveBuild('signup', '/api/v1', reload)).resolves.toBe(false);
    await expect(reloadOntoLiveBuild('thankyou', '/api/v1', reload)).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it(`reloads at most once in ${MIN_RELOAD_INTERVAL_MS / 1000} s, so a broken release cannot loop the page`, async () => {
    liveIs(`signup=${LIVE_BUILD}`);
    const first = reloadOntoLiveBuild('signup', '/api/v1', reload);
    await jest.runAllTimersAsync();
    await expect(first).resolves.toBe(true);
    await expect(reloadOntoLiveBuild('signup', '/api/v1', reload)).resolves.toBe(false);
    jest.setSystemTime(Date.now() + MIN_RELOAD_INTERVAL_MS);
    const later = reloadOntoLiveBuild('signup', '/api/v1', reload);
    await jest.runAllTimersAsync();
    await expect(later).resolves.toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('without a release pointer: the remote image’s own build', () => {
  const ENTRY = 'http://localhost:3002/remoteEntry.js';
  let fetchMock: jest.Mock;
  const manifestLists = (files: string[], status = 200) =>
    fetchMock.mockResolvedValue({
      ok: status < 300,
      json: async () => ({ exposes: [{ assets: { js: { sync: files, async: [] }, css: { sync: [], async: [] } } }] }),
    });
  beforeEach(() => {
    sessionStorage.clear();
    fetchMock = jest.fn();
    Object.assign(globalThis, { fetch: fetchMock });
    // What this page fetched: the remote's entry and its exposed chunk, and another origin's file
    // (jsdom has no resource timing: the slice of it the function reads).
    Object.assign(performance, {
      getEntriesByType: () => [
        { name: ENTRY },
        { name: 'http://localhost:3002/__federation_expose_Screen.aaaaaaaa.js' },
        { name: 'http://localhost:3000/main.bbbbbbbb.js' },
      ],
    });
  });
  afterEach(() => Reflect.deleteProperty(performance, 'getEntriesByType'));

  it('is replaced when its current manifest no longer lists a file this page fetched or failed to fetch', async () => {
    manifestLists(['__federation_expose_Screen.cccccccc.js']);
    await expect(imageBuildReplaced(ENTRY)).resolves.toBe(true);
    expect(fetchMock).toHaveBeenCalledWith('http://localhost:3002/mf-manifest.json', { cache: 'no-store' });
    manifestLists(['__federation_expose_Screen.aaaaaaaa.js']);
    await expect(imageBuildReplaced(ENTRY, 'http://localhost:3002/card-scanner.dddddddd.js')).resolves.toBe(true);
  });

  it('is not replaced when the build still lists them (the code is unreachable, not gone) or cannot be read', async () => {
    manifestLists(['__federation_expose_Screen.aaaaaaaa.js', 'card-scanner.dddddddd.js']);
    await expect(imageBuildReplaced(ENTRY, 'http://localhost:3002/card-scanner.dddddddd.js')).resolves.toBe(false);
    manifestLists([], 503);
    await expect(imageBuildReplaced(ENTRY)).resolves.toBe(false);
  });
});
