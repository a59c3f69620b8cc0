import { createFakeNavigation } from '@special-gift/shared/testing';
import { act, renderHook } from '@testing-library/react';
import type { ShellNavigation } from './create-navigation';
import { isIosPlatform, useSwipeBack } from './use-swipe-back';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_OLD = 'Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

describe('isIosPlatform', () => {
  it('recognises iPhone and an iPad that still says so', () => {
    expect(isIosPlatform({ userAgent: IPHONE, maxTouchPoints: 5 })).toBe(true);
    expect(isIosPlatform({ userAgent: IPAD_OLD, maxTouchPoints: 5 })).toBe(true);
  });

  it('recognises iPadOS, which reports a Mac with a touch screen', () => {
    expect(isIosPlatform({ userAgent: MAC_SAFARI, maxTouchPoints: 5 })).toBe(true);
  });

  it('does not take a real Mac, Android or a desktop PC for iOS', () => {
    expect(isIosPlatform({ userAgent: MAC_SAFARI, maxTouchPoints: 0 })).toBe(false);
    expect(isIosPlatform({ userAgent: MAC_SAFARI, maxTouchPoints: 1 })).toBe(false);
    expect(isIosPlatform({ userAgent: ANDROID, maxTouchPoints: 5 })).toBe(false);
    expect(isIosPlatform({ userAgent: WINDOWS, maxTouchPoints: 10 })).toBe(false);
  });

  it("reads the browser's navigator by default (jsdom is not iOS)", () => {
    expect(isIosPlatform()).toBe(false);
  });
});

describe('useSwipeBack', () => {
  /** `configured` defaults to true (on); pass `undefined` explicitly for the platform default. */
  function setup(options: { configured?: boolean | undefined; canGoBack?: boolean } = {}) {
    const configured = 'configured' in options ? options.configured : true;
    const canGoBack = options.canGoBack ?? true;
    const navigation: ShellNavigation = {
      ...createFakeNavigation('/a'),
      direction: () => 'forward',
      skipNextTransition: jest.fn(),
    };
    jest.mocked(navigation.canGoBack).mockReturnValue(canGoBack);
    const page = document.createElement('div');
    document.body.append(page);
    const hook = renderHook(() => useSwipeBack({ current: page }, navigation, configured));
    return { navigation, page, hook };
  }

  /** Dispatches a touch event on the document at `x, y` and time `t` (ms); returns it. */
  function touch(type: 'touchstart' | 'touchmove' | 'touchend', x: number, y: number, t: number): Event {
    const event = new Event(type, { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'touches', { value: type === 'touchend' ? [] : [{ clientX: x, clientY: y }] });
    Object.defineProperty(event, 'timeStamp', { value: t });
    act(() => {
      document.dispatchEvent(event);
    });
    return event;
  }

  const width = () => window.innerWidth;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    document.documentElement.removeAttribute('dir');
    document.body.replaceChildren();
  });

  it('lets the page follow a drag from the leading edge and goes back, unanimated, when dragged past half the width', () => {
    const { navigation, page } = setup();
    touch('touchstart', 10, 300, 0);
    const move = touch('touchmove', 30, 302, 500);
    expect(move.defaultPrevented).toBe(true);
    expect(page).toHaveClass('sg-shell-page--swiping');
    expect(page.style.transform).toBe('translateX(20px)');

    touch('touchmove', width() / 2 + 60, 305, 1000);
    touch('touchend', 0, 0, 1500);
    expect(navigation.back).not.toHaveBeenCalled();
    act(() => {
      jest.advanceTimersByTime(540);
    });
    expect(navigation.skipNextTransition).toHaveBeenCalledTimes(1);
    expect(navigation.back).toHaveBeenCalledTimes(1);
    expect(page).not.toHaveClass('sg-shell-page--swiping');
  });

  it('completes a quick flick even when it is short', () => {
    const { navigation } = setup();
    touch('touchstart', 5, 300, 0);
    touch('touchmove', 25, 300, 10);
    touch('touchmove', 65, 300, 20);
    touch('touchend', 0, 0, 25);
    act(() => {
      jest.runAllTimers();
    });
    expect(navigation.back).toHaveBeenCalledTimes(1);
  });

  it('slides the page back and stays when released before half the width', () => {
    const { navigation, page } = setup();
    touch('touchstart', 10, 300, 0);
    touch('touchmove', 120, 300, 500);
    touch('touchend', 0, 0, 1000);
    act(() => {
      jest.runAllTimers();
    });
    expect(navigation.back).not.toHaveBeenCalled();
    expect(page.style.transform).toBe('');
  });

  it('ignores touches away from the edge, vertical scrolls, and pages with nothing to go back to', () => {
    const away = setup();
    touch('touchstart', 200, 300, 0);
    expect(touch('touchmove', 400, 300, 100).defaultPrevented).toBe(false);
    touch('touchend', 0, 0, 200);
    away.hook.unmount();

    const scroll = setup();
    touch('touchstart', 10, 300, 0);
    expect(touch('touchmove', 15, 360, 100).defaultPrevented).toBe(false);
    expect(touch('touchmove', 400, 360, 200).defaultPrevented).toBe(false);
    touch('touchend', 0, 0, 300);
    scroll.hook.unmount();

    const rootPage = setup({ canGoBack: false });
    touch('touchstart', 10, 300, 0);
    expect(touch('touchmove', 400, 300, 100).defaultPrevented).toBe(false);
    touch('touchend', 0, 0, 200);

    act(() => {
      jest.runAllTimers();
    });
    for (const { navigation } of [away, scroll, rootPage]) expect(navigation.back).not.toHaveBeenCalled();
  });

  it('swipes from the right edge toward the left in RTL, moving the page leftward', () => {
    document.documentElement.dir = 'rtl';
    const { navigation, page } = setup();
    touch('touchstart', width() - 10, 300, 0);
    touch('touchmove', width() - 40, 300, 500);
    expect(page.style.transform).toBe('translateX(-30px)');
    touch('touchmove', width() / 2 - 60, 300, 1000);
    touch('touchend', 0, 0, 1500);
    act(() => {
      jest.runAllTimers();
    });
    expect(navigation.back).toHaveBeenCalledTimes(1);
  });

  /** A complete edge-to-edge swipe that must neither be captured nor go back. */
  function expectFullSwipeIgnored(back: (defaultHref?: string) => void) {
    touch('touchstart', 10, 300, 0);
    expect(touch('touchmove', width() - 10, 300, 500).defaultPrevented).toBe(false);
    touch('touchend', 0, 0, 1000);
    act(() => {
      jest.runAllTimers();
    });
    expect(back).not.toHaveBeenCalled();
  }

  it('is off when the config says so, and off by default outside iOS', () => {
    for (const configured of [false, undefined]) {
      const { navigation, hook } = setup({ configured });
      expectFullSwipeIgnored(navigation.back);
      hook.unmount();
    }
  });

  it('stops listening when unmounted', () => {
    const { navigation, hook } = setup();
    hook.unmount();
    expectFullSwipeIgnored(navigation.back);
  });
});
