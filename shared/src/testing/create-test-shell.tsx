// Test-only: a complete, inspectable ShellApi for rendering a screen the way the host mounts it.
// Real overlays (controller + OverlayHost), an in-memory storage, a recording navigation and
// jest-fn-backed HTTP, plus a fresh synchronous i18next instance per render.
import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import i18next, { type i18n as I18nInstance, type Resource } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { ShellConfig } from '../contract/config';
import type { HttpClient, HttpRequestOptions } from '../contract/http';
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES, type Language, type ShellI18n } from '../contract/i18n';
import type { Navigation, ShellLocation } from '../contract/navigation';
import type { ShellApi } from '../contract/shell';
import type { KeyValueStorage } from '../contract/storage';
import { CONTRACT_VERSION } from '../version';
import { ShellProvider } from '../contract/react/shell-context';
import { createOverlayController, OverlayHost, type OverlayController, type OverlayLabels } from '../host';
import { installTopLayerPolyfill } from './top-layer-polyfill';

export const TEST_CONFIG: ShellConfig = {
  apiBase: '/api/v1',
  cardScanBase: 'https://www.special-gift.example/scan',
  siteBase: 'https://www.special-gift.example',
  defaultLanguage: FALLBACK_LANGUAGE,
};

export const TEST_OVERLAY_LABELS: OverlayLabels = { ok: 'OK', cancel: 'Cancel', close: 'Close' };

// ---------------------------------------------------------------------------------------------
// Navigation

export interface FakeNavigation extends Navigation {
  readonly forward: jest.Mock<void, [to: string]>;
  readonly back: jest.Mock<void, [defaultHref?: string]>;
  readonly root: jest.Mock<void, [to: string]>;
  readonly canGoBack: jest.Mock<boolean, []>;
  /** Moves to `to` (path, search and hash) without recording a call, e.g. to simulate a deep link. */
  setLocation(to: string): void;
  /** The in-app stack, oldest first; the last entry is the current location. */
  stack(): readonly ShellLocation[];
}

export function toShellLocation(to: string): ShellLocation {
  const url = new URL(to, 'http://shell.test');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/**
 * A navigation that behaves like the host's (forward pushes, back pops or goes to `defaultHref`,
 * root starts a new stack) and records every call as a jest mock.
 */
export function createFakeNavigation(initial = '/'): FakeNavigation {
  const listeners = new Set<() => void>();
  let entries: ShellLocation[] = [toShellLocation(initial)];
  const notify = () => [...listeners].forEach((listener) => listener());
  const current = (): ShellLocation => entries[entries.length - 1] ?? toShellLocation('/');

  return {
    forward: jest.fn<void, [to: string]>((to) => {
      entries = [...entries, toShellLocation(to)];
      notify();
    }),
    back: jest.fn<void, [defaultHref?: string]>((defaultHref) => {
      if (entries.length > 1) entries = entries.slice(0, -1);
      else if (defaultHref !== undefined) entries = [toShellLocation(defaultHref)];
      else return;
      notify();
    }),
    root: jest.fn<void, [to: string]>((to) => {
      entries = [toShellLocation(to)];
      notify();
    }),
    canGoBack: jest.fn<boolean, []>(() => entries.length > 1),
    location: current,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    setLocation(to) {
      entries = [...entries.slice(0, -1), toShellLocation(to)];
      notify();
    },
    stack: () => entries,
  };
}

// ---------------------------------------------------------------------------------------------
// Storage

export interface MemoryStorage extends KeyValueStorage {
  readonly get: jest.Mock<Promise<unknown>, [key: string]> & KeyValueStorage['get'];
  readonly set: jest.Mock<Promise<unknown>, [key: string, value: unknown]> & KeyValueStorage['set'];
  readonly remove: jest.Mock<Promise<void>, [key: string]>;
  readonly keys: jest.Mock<Promise<string[]>, []>;
  readonly clear: jest.Mock<Promise<void>, []>;
  /** The stored values (copies, as a real driver keeps), for direct inspection and seeding. */
  readonly data: Map<string, unknown>;
}

const copy = <T,>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** In-memory KeyValueStorage; every method is a jest mock, so a test can make one fail. */
export function createMemoryStorage(initial: Readonly<Record<string, unknown>> = {}): MemoryStorage {
  const data = new Map<string, unknown>(Object.entries(initial).map(([key, value]) => [key, copy(value)]));
  const get = jest.fn<Promise<unknown>, [key: string]>(async (key) => (data.has(key) ? copy(data.get(key)) : null));
  const set = jest.fn<Promise<unknown>, [key: string, value: unknown]>(async (key, value) => {
    data.set(key, copy(value));
    return value;
  });
  return {
    // The generic signatures are satisfied at runtime: values go in and come out unchanged.
    get: get as MemoryStorage['get'],
    set: set as MemoryStorage['set'],
    remove: jest.fn<Promise<void>, [key: string]>(async (key) => {
      data.delete(key);
    }),
    keys: jest.fn<Promise<string[]>, []>(async () => [...data.keys()]),
    clear: jest.fn<Promise<void>, []>(async () => {
      data.clear();
    }),
    driver: () => 'memoryStorage',
    data,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

type RequestArgs = [method: string, path: string, body?: unknown, options?: HttpRequestOptions];

export interface FakeHttp {
  /** What the screen sees through the contract; each call lands in the mocks below. */
  readonly client: HttpClient;
  readonly get: jest.Mock<Promise<unknown>, [path: string, options?: HttpRequestOptions]>;
  readonly post: jest.Mock<Promise<unknown>, [path: string, body: unknown, options?: HttpRequestOptions]>;
  readonly request: jest.Mock<Promise<unknown>, RequestArgs>;
}

/** HTTP whose every call must be answered by the test (`mockResolvedValueOnce` ...); unanswered calls reject. */
export function createFakeHttp(): FakeHttp {
  const unanswered = (method: string, path: string) =>
    Promise.reject(new Error(`No fake answer for ${method} ${path}`));
  const get = jest.fn<Promise<unknown>, [path: string, options?: HttpRequestOptions]>((path) =>
    unanswered('GET', path),
  );
  const post = jest.fn<Promise<unknown>, [path: string, body: unknown, options?: HttpRequestOptions]>((path) =>
    unanswered('POST', path),
  );
  const request = jest.fn<Promise<unknown>, RequestArgs>((method, path) => unanswered(method, path));
  const client: HttpClient = {
    get: <T,>(path: string, options?: HttpRequestOptions) => get(path, options) as Promise<T>,
    post: <T,>(path: string, body: unknown, options?: HttpRequestOptions) => post(path, body, options) as Promise<T>,
    request: <T,>(method: string, path: string, body?: unknown, options?: HttpRequestOptions) =>
      request(method, path, body, options) as Promise<T>,
  };
  return { client, get, post, request };
}

// ---------------------------------------------------------------------------------------------
// i18n

export interface FakeShellI18n extends ShellI18n {
  readonly changeLanguage: jest.Mock<Promise<void>, [language: Language]>;
  /** i18next instances that switch along with `changeLanguage` (renderWithShell registers its own). */
  follow(instance: I18nInstance): void;
}

export function createFakeShellI18n(language: Language = FALLBACK_LANGUAGE): FakeShellI18n {
  let current = language;
  const followers = new Set<I18nInstance>();
  return {
    languages: SUPPORTED_LANGUAGES,
    current: () => current,
    changeLanguage: jest.fn<Promise<void>, [language: Language]>(async (next) => {
      current = next;
      await Promise.all([...followers].map((instance) => instance.changeLanguage(next)));
    }),
    follow(instance) {
      followers.add(instance);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The shell

export interface TestShellOverrides {
  readonly config?: Partial<ShellConfig>;
  /** The initial location, e.g. `/sign-up?card=4111111111111111`. Default `/`. */
  readonly location?: string;
  readonly language?: Language;
  /** Initial storage entries. */
  readonly storage?: Readonly<Record<string, unknown>>;
}

export interface TestShell {
  /** Hand this to `ShellProvider` (renderWithShell does). */
  readonly shell: ShellApi;
  readonly config: ShellConfig;
  readonly navigation: FakeNavigation;
  readonly storage: MemoryStorage;
  readonly overlays: OverlayController;
  readonly http: FakeHttp;
  readonly i18n: FakeShellI18n;
}

export function createTestShell(overrides: TestShellOverrides = {}): TestShell {
  const config: ShellConfig = { ...TEST_CONFIG, ...overrides.config };
  const navigation = createFakeNavigation(overrides.location);
  const storage = createMemoryStorage(overrides.storage);
  const overlays = createOverlayController();
  const http = createFakeHttp();
  const i18n = createFakeShellI18n(overrides.language);
  const shell: ShellApi = {
    contractVersion: CONTRACT_VERSION,
    config,
    navigation,
    storage,
    overlays,
    http: http.client,
    i18n,
  };
  return { shell, config, navigation, storage, overlays, http, i18n };
}

/**
 * A fresh i18next instance, ready synchronously (no backend: every text comes from `resources`).
 * Unlike the host it shows a missing key as the key itself, so a missing text is visible in a failure.
 */
export function createTestI18n(options: {
  resources: Resource;
  language?: Language;
  defaultNS?: string;
}): I18nInstance {
  const namespaces = [...new Set(Object.values(options.resources).flatMap((byNamespace) => Object.keys(byNamespace)))];
  const instance = i18next.createInstance();
  void instance.init({
    lng: options.language ?? FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: options.resources,
    ns: namespaces,
    defaultNS: options.defaultNS ?? namespaces[0] ?? 'translation',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    react: { useSuspense: false },
  });
  return instance;
}

export interface RenderWithShellOptions extends Omit<RenderOptions, 'wrapper' | 'queries'> {
  /** From `createTestShell()`; a default one is made when omitted. */
  readonly shell?: TestShell;
  /** i18next resources, e.g. `{ en: { intro: en }, fr: { intro: fr } }` with the real JSON files. */
  readonly resources?: Resource;
  readonly defaultNS?: string;
}

export type RenderWithShellResult = RenderResult & TestShell & { readonly i18next: I18nInstance };

/** jsdom has no showModal/showPopover; install the overlay tests' stand-ins once per test file. */
function ensureTopLayer(): void {
  if (typeof HTMLDialogElement.prototype.showModal !== 'function') installTopLayerPolyfill();
}

/**
 * Renders `ui` as the host mounts a screen: I18nextProvider + ShellProvider, with the OverlayHost
 * next to it so overlays opened through `useOverlays()` really render.
 */
export function renderWithShell(ui: ReactElement, options: RenderWithShellOptions = {}): RenderWithShellResult {
  const { shell: given, resources = {}, defaultNS, ...renderOptions } = options;
  ensureTopLayer();
  const testShell = given ?? createTestShell();
  const instance = createTestI18n({
    resources,
    language: testShell.i18n.current(),
    ...(defaultNS ? { defaultNS } : {}),
  });
  testShell.i18n.follow(instance);

  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <I18nextProvider i18n={instance}>
        <ShellProvider shell={testShell.shell}>
          {children}
          <OverlayHost controller={testShell.overlays} labels={TEST_OVERLAY_LABELS} />
        </ShellProvider>
      </I18nextProvider>
    );
  }

  const result = render(ui, { ...renderOptions, wrapper: Wrapper });
  return { ...result, ...testShell, i18next: instance };
}
