/**
 * The one surface the cross-engine suite (e2e/engines) drives a browser through: Playwright for
 * Chromium, puppeteer-core over WebDriver BiDi for Firefox, selenium-webdriver (W3C WebDriver) for WebKitGTK.
 * Everything else (what a test looks for, what it asserts) is plain DOM read with `evaluate`, so a
 * check is written once and means the same in every engine.
 */
export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type Engine = (typeof ENGINES)[number];

/** Keys as the W3C WebDriver and Playwright name them alike. */
export type Key = 'Tab' | 'Shift+Tab' | 'Enter' | 'Escape' | 'Space';

export interface Driver {
  readonly engine: Engine;
  /**
   * A path on the host's origin, or a full URL; resolves once the document is parsed
   * (DOMContentLoaded): the checks then wait for what they need, so a test can act before hydration.
   */
  goto(pathOrUrl: string): Promise<void>;
  reload(): Promise<void>;
  back(): Promise<void>;
  /** A real pointer click on the first element the CSS selector matches. */
  click(selector: string): Promise<void>;
  /** Focuses the field and types the text key by key (replacing its value). */
  type(selector: string, text: string): Promise<void>;
  press(key: Key): Promise<void>;
  /**
   * Runs `fn(arg)` in the page and returns its (JSON) result; `fn` must be self-contained (it is
   * sent as source). An async fn is awaited.
   */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Runs a script's source in the page (e.g. axe-core's), then `fn`: for libraries that are not modules. */
  evaluateWithLibrary<R>(librarySource: string, fn: () => R | Promise<R>): Promise<R>;
  /** The layout viewport's size in CSS pixels (window.innerWidth/innerHeight). */
  setViewport(width: number, height: number): Promise<void>;
  /** Closes the page (and its context); a second call does nothing. */
  close(): Promise<void>;
}

/** Engines chosen by SG_ENGINES (comma separated), all three by default. */
export function selectedEngines(setting = process.env.SG_ENGINES): Engine[] {
  if (!setting) return [...ENGINES];
  const chosen = setting
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of chosen)
    if (!(ENGINES as readonly string[]).includes(name))
      throw new Error(`SG_ENGINES: unknown engine "${name}" (known: ${ENGINES.join(', ')})`);
  if (chosen.length === 0)
    throw new Error(`SG_ENGINES="${setting}" names no engine (known: ${ENGINES.join(', ')}; unset it for all)`);
  return chosen as Engine[];
}

/** The phone the suite's pages are shown on (the Pixel 7's CSS viewport, as the Chromium suite). */
export const PHONE = { width: 412, height: 915 } as const;
