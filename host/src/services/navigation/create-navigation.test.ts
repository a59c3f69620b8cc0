import { waitFor } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';
import type * as ReactRouterDom from 'react-router-dom';
import { createNavigation, type AppRouter, type ShellNavigation } from './create-navigation';

// A real data router over jsdom's history, so depth lives in real history entries.
const routes = ['/', '/a', '/b', '/c', '/home'].map((path) => ({ path, element: null }));

let createBrowserRouter: typeof ReactRouterDom.createBrowserRouter;
let router: AppRouter | undefined;

/**
 * This jsdom has no Fetch API. The data router builds a Request for every navigation and, with no
 * loaders or actions, only reads its url, method and signal: this stand-in is enough.
 */
class RequestStandIn {
  readonly url: string;
  readonly method: string;
  readonly signal: AbortSignal;
  readonly headers: Headers;
  constructor(input: string | URL, init: RequestInit = {}) {
    this.url = String(input);
    this.method = init.method ?? 'GET';
    this.signal = init.signal ?? new AbortController().signal;
    this.headers = new Headers(init.headers);
  }
}

beforeAll(async () => {
  // React Router needs TextEncoder when it loads; lend jsdom Node's before importing it.
  if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
  if (typeof globalThis.Request === 'undefined') Object.assign(globalThis, { Request: RequestStandIn });
  ({ createBrowserRouter } = await import('react-router-dom'));
});

function start(url = '/'): { router: AppRouter; navigation: ShellNavigation } {
  window.history.replaceState(null, '', url);
  router = createBrowserRouter(routes);
  return { router, navigation: createNavigation(router) };
}

afterEach(() => {
  router?.dispose();
  router = undefined;
});

/** Resolves once the navigation has reached `pathname` (router navigations and popstate are async). */
async function arrivedAt(navigation: ShellNavigation, pathname: string) {
  await waitFor(() => expect(navigation.location().pathname).toBe(pathname));
}

/** The browser's own back/forward: jsdom fires popstate asynchronously. */
function browserTraverse(step: 'back' | 'forward'): Promise<void> {
  return new Promise((resolve) => {
    window.addEventListener('popstate', () => setTimeout(resolve, 0), { once: true });
    if (step === 'back') window.history.back();
    else window.history.forward();
  });
}

describe('createNavigation', () => {
  it('asks the router to render forward and root navigations synchronously (flushSync), not as a postponable transition', async () => {
    const { router, navigation } = start('/');
    const navigate = jest.spyOn(router, 'navigate');
    navigation.forward('/a');
    expect(navigate).toHaveBeenLastCalledWith('/a', expect.objectContaining({ flushSync: true }));
    await arrivedAt(navigation, '/a');
    navigation.root('/home');
    expect(navigate).toHaveBeenLastCalledWith('/home', expect.objectContaining({ flushSync: true, replace: true }));
    await arrivedAt(navigation, '/home');
  });

  it('starts a deep link at depth 0: nothing to go back to, no animation', () => {
    const { navigation } = start('/b?x=1#top');
    expect(navigation.canGoBack()).toBe(false);
    expect(navigation.direction()).toBe('root');
    expect(navigation.location()).toEqual({ pathname: '/b', search: '?x=1', hash: '#top' });
  });

  it('forward pushes an entry, one level deeper each time, with a forward transition', async () => {
    const { navigation } = start();
    const length = window.history.length;

    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    expect(navigation.canGoBack()).toBe(true);
    expect(navigation.direction()).toBe('forward');
    expect(window.history.length).toBe(length + 1);

    navigation.forward('/b?step=2');
    await arrivedAt(navigation, '/b');
    expect(navigation.location().search).toBe('?step=2');
    expect(window.history.state).toMatchObject({ usr: { depth: 2 } });
  });

  it('forward to the current path and search does nothing', async () => {
    const { navigation, router: appRouter } = start('/a?x=1');
    const key = appRouter.state.location.key;
    navigation.forward('/a?x=1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(appRouter.state.location.key).toBe(key);
    expect(navigation.canGoBack()).toBe(false);
  });

  it('root replaces the current entry and starts a new stack', async () => {
    const { navigation } = start();
    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    navigation.forward('/b');
    await arrivedAt(navigation, '/b');
    const length = window.history.length;

    navigation.root('/c');
    await arrivedAt(navigation, '/c');
    expect(window.history.length).toBe(length);
    expect(navigation.canGoBack()).toBe(false);
    expect(navigation.direction()).toBe('root');
  });

  it('back returns to the previous entry with a back transition', async () => {
    const { navigation } = start();
    navigation.forward('/a');
    await arrivedAt(navigation, '/a');

    navigation.back('/home');
    await arrivedAt(navigation, '/');
    expect(navigation.direction()).toBe('back');
    expect(navigation.canGoBack()).toBe(false);
  });

  it('back at depth 0 goes to defaultHref with a back transition, which becomes the new root', async () => {
    const { navigation } = start('/b');
    navigation.back('/home');
    await arrivedAt(navigation, '/home');
    expect(navigation.direction()).toBe('back');
    expect(navigation.canGoBack()).toBe(false);
  });

  it('back at depth 0 without defaultHref does nothing', async () => {
    const { navigation } = start('/b');
    const listener = jest.fn();
    navigation.subscribe(listener);
    const length = window.history.length;
    navigation.back();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(navigation.location().pathname).toBe('/b');
    expect(window.history.length).toBe(length);
    expect(listener).not.toHaveBeenCalled();
  });

  it("follows the browser's back and forward buttons, telling their direction apart", async () => {
    const { navigation } = start();
    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    navigation.forward('/b');
    await arrivedAt(navigation, '/b');

    await browserTraverse('back');
    await arrivedAt(navigation, '/a');
    expect(navigation.direction()).toBe('back');
    expect(navigation.canGoBack()).toBe(true);

    await browserTraverse('back');
    await arrivedAt(navigation, '/');
    expect(navigation.direction()).toBe('back');
    expect(navigation.canGoBack()).toBe(false);

    await browserTraverse('forward');
    await arrivedAt(navigation, '/a');
    expect(navigation.direction()).toBe('forward');
    expect(navigation.canGoBack()).toBe(true);
  });

  it('restores canGoBack from the history entry after a reload', async () => {
    const first = start();
    first.navigation.forward('/a');
    await arrivedAt(first.navigation, '/a');
    first.router.dispose();

    // A reload: a new router and navigation over the same history entry.
    router = createBrowserRouter(routes);
    const reloaded = createNavigation(router);
    expect(reloaded.location().pathname).toBe('/a');
    expect(reloaded.canGoBack()).toBe(true);
  });

  it('skipNextTransition makes only the next page change unanimated', async () => {
    const { navigation } = start();
    navigation.skipNextTransition();
    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    expect(navigation.direction()).toBe('root');

    navigation.forward('/b');
    await arrivedAt(navigation, '/b');
    expect(navigation.direction()).toBe('forward');
  });

  it('skipNextTransition also applies to a back navigation (the swipe-back case)', async () => {
    const { navigation } = start();
    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    navigation.skipNextTransition();
    navigation.back();
    await arrivedAt(navigation, '/');
    expect(navigation.direction()).toBe('root');
  });

  it('returns the same location object until the location changes', async () => {
    const { navigation } = start('/a');
    const before = navigation.location();
    expect(navigation.location()).toBe(before);

    navigation.forward('/b#details');
    await arrivedAt(navigation, '/b');
    const after = navigation.location();
    expect(after).not.toBe(before);
    expect(after).toEqual({ pathname: '/b', search: '', hash: '#details' });
    expect(navigation.location()).toBe(after);
  });

  it('notifies subscribers of each location change until they unsubscribe', async () => {
    const { navigation } = start();
    const listener = jest.fn();
    const unsubscribe = navigation.subscribe(listener);

    navigation.forward('/a');
    await arrivedAt(navigation, '/a');
    expect(listener).toHaveBeenCalledTimes(1);

    unsubscribe();
    navigation.root('/b');
    await arrivedAt(navigation, '/b');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
