import { PRELOAD_IDLE_TIMEOUT_MS, schedulePreload } from './schedule-preload';

type IdleCallback = (deadline: IdleDeadline) => void;

function installIdleCallback() {
  const callbacks: IdleCallback[] = [];
  const requestIdleCallback = jest.fn((callback: IdleCallback, _options?: IdleRequestOptions) => {
    callbacks.push(callback);
    return callbacks.length;
  });
  Object.defineProperty(window, 'requestIdleCallback', {
    configurable: true,
    writable: true,
    value: requestIdleCallback,
  });
  const idle = () =>
    callbacks.splice(0).forEach((callback) => callback({ didTimeout: false, timeRemaining: () => 50 }));
  return { requestIdleCallback, idle };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  Reflect.deleteProperty(window, 'requestIdleCallback');
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('schedulePreload', () => {
  it('does nothing until the returned callback is called', () => {
    const { requestIdleCallback } = installIdleCallback();
    const preload = jest.fn(() => Promise.resolve());
    schedulePreload(preload);
    expect(requestIdleCallback).not.toHaveBeenCalled();
    expect(preload).not.toHaveBeenCalled();
  });

  it('waits for the browser to be idle (2 s at most), then preloads once however often it is called', () => {
    const { requestIdleCallback, idle } = installIdleCallback();
    const preload = jest.fn(() => Promise.resolve());
    const onFirstScreenRendered = schedulePreload(preload);

    onFirstScreenRendered();
    onFirstScreenRendered();
    expect(requestIdleCallback).toHaveBeenCalledTimes(1);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: PRELOAD_IDLE_TIMEOUT_MS });
    expect(preload).not.toHaveBeenCalled();

    idle();
    onFirstScreenRendered();
    idle();
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('falls back to a 200 ms timeout without requestIdleCallback', () => {
    jest.useFakeTimers();
    expect(window.requestIdleCallback).toBeUndefined();
    const preload = jest.fn(() => Promise.resolve());
    const onFirstScreenRendered = schedulePreload(preload);

    onFirstScreenRendered();
    jest.advanceTimersByTime(199);
    expect(preload).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(preload).toHaveBeenCalledTimes(1);

    onFirstScreenRendered();
    jest.runAllTimers();
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('logs a failed preload instead of leaving an unhandled rejection', async () => {
    const { idle } = installIdleCallback();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failure = new Error('offline');
    schedulePreload(() => Promise.reject(failure))();
    idle();
    await flush();
    expect(warn).toHaveBeenCalledWith('[preload] failed', failure);
  });
});
