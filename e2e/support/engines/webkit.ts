import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Capabilities, Key as Keys, WebDriver, type WebElement } from 'selenium-webdriver';
import { Executor, HttpClient } from 'selenium-webdriver/http';
import { waitForServer } from 'selenium-webdriver/http/util';
import { findFreePort } from 'selenium-webdriver/net/portprober';
import { HOST_URL, STATE_DIR } from '../topology';
import { PHONE, type Driver, type Key } from './driver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? 'WebKitWebDriver';
export const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** The pid of the process group launchWebKit started, so a run that died can be cleaned up by the next. */
export const WEBKIT_PID_FILE = join(STATE_DIR, 'webkit-driver.pid');

/**
 * The virtual screen. With no window manager, X gives keyboard focus to the window under the
 * pointer (PointerRoot), and Xvfb starts the pointer at the screen's centre: on xvfb-run's default
 * 1280 × 1024 screen that is outside MiniBrowser's window (at 0,0, a phone wide), so the window was
 * never focused: `document.hasFocus()` was false throughout a run. On this screen the centre
 * (320, 512) lies inside any window of the phone sizes the suite uses (at least 390 × 844), and
 * `document.hasFocus()` is true from the first page on, as for a user at the keyboard.
 */
const XVFB_SCREEN = '640x1024x24';
/** How long the driver itself looks for an element a command names (WebDriver's implicit wait). */
const FIND_TIMEOUT_MS = 10_000;
const KEYS: Record<Key, { modifier?: string; key: string }> = {
  Tab: { key: Keys.TAB },
  'Shift+Tab': { modifier: Keys.SHIFT, key: Keys.TAB },
  Enter: { key: Keys.ENTER },
  Escape: { key: Keys.ESCAPE },
  Space: { key: Keys.SPACE },
};

/** Ends the process group a previous run recorded and left behind (its pid file), if any. */
export function killStaleWebKit(): void {
  let recorded: string;
  try {
    recorded = readFileSync(WEBKIT_PID_FILE, 'utf8');
  } catch {
    return; // no record: nothing left behind
  }
  const pid = Number(recorded.trim());
  if (Number.isInteger(pid) && pid > 1) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(WEBKIT_PID_FILE, { force: true });
}

/** A running WebKitWebDriver (under xvfb-run, in a process group of its own) and how to stop it. */
interface DriverServer {
  url: string;
  stop: () => Promise<void>;
}

async function startDriverServer(config: string): Promise<DriverServer> {
  killStaleWebKit();
  // A free port chosen now: helpers and parallel runs share the machine.
  const port = await findFreePort('127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  // Its own process group, so stopping ends xvfb-run, Xvfb, the driver and the browsers it started.
  const server: ChildProcess = spawn(
    'xvfb-run',
    ['-a', '-s', `-screen 0 ${XVFB_SCREEN}`, WEBKIT_DRIVER, `--port=${port}`],
    { detached: true, stdio: 'ignore', env: { ...process.env, XDG_CONFIG_HOME: config } },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  // A missing xvfb-run is an 'error' event (ENOENT), not an exit: it ends the wait below at once.
  let spawnError: Error | undefined;
  const failed = new Promise<void>((resolve) =>
    server.once('error', (error) => {
      spawnError = error;
      resolve();
    }),
  );
  if (server.pid) writeFileSync(WEBKIT_PID_FILE, `${server.pid}\n`);
  const stop = async () => {
    if (server.pid && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const killLater = setTimeout(() => {
        try {
          if (server.pid) process.kill(-server.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await exited;
      clearTimeout(killLater);
    }
    rmSync(WEBKIT_PID_FILE, { force: true });
  };
  try {
    await waitForServer(url, 20_000, Promise.race([exited, failed]));
  } catch (error) {
    await stop();
    throw new Error(
      `WebKitWebDriver did not answer on ${url} (are xvfb, xauth and webkit2gtk-driver installed?)` +
        (spawnError ? `: ${spawnError.message}` : ''),
      { cause: error },
    );
  }
  return { url, stop };
}

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver, on a virtual display (xvfb-run): WebKitGTK has
 * no headless mode. The W3C WebDriver client is Selenium's (selenium-webdriver). One browser
 * session per test, as the other engines get a fresh context.
 *
 * Every command has a bound (see `within`): a driver that stops answering fails the step that
 * waited, by name, instead of the whole test's timeout. The driver runs one session at a time, so
 * a session that does not end when asked would block every later test: the driver is then
 * restarted before the next session.
 */
export async function launchWebKit(): Promise<{ open: () => Promise<Driver>; close: () => Promise<void> }> {
  // MiniBrowser's toolbar would keep its window at least 447 px wide: a GTK style sheet of its own
  // shrinks the toolbar so the page can be as narrow as a phone (GTK styles its widgets only,
  // never the page).
  const config = join(STATE_DIR, 'webkit-config');
  mkdirSync(join(config, 'gtk-3.0'), { recursive: true });
  writeFileSync(
    join(config, 'gtk-3.0', 'gtk.css'),
    '* { font-size: 4px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; }\n',
  );
  let server = await startDriverServer(config);
  let restartBeforeNext = false;
  const restart = async () => {
    await server.stop();
    server = await startDriverServer(config);
    restartBeforeNext = false;
  };
  return {
    open: async () => {
      if (restartBeforeNext) await restart();
      const session = WebDriver.createSession(
        new Executor(new HttpClient(server.url)),
        new Capabilities({
          pageLoadStrategy: 'eager',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        }),
      );
      try {
        await within(SESSION_TIMEOUT_MS, 'starting a session', session.getSession());
        await within(
          COMMAND_TIMEOUT_MS,
          'setting the timeouts',
          session.manage().setTimeouts({ implicit: FIND_TIMEOUT_MS }),
        );
      } catch (error) {
        // The driver may still hold the session: the next test gets a fresh driver either way.
        restartBeforeNext = true;
        throw error;
      }
      const driver = webDriver(session, () => {
        restartBeforeNext = true;
      });
      try {
        await driver.setViewport(PHONE.width, PHONE.height);
      } catch (error) {
        // The fixture never gets this driver to close: end its session here (a restart if it will not).
        await driver.close();
        throw error;
      }
      return driver;
    },
    close: () => server.stop(),
  };
}

/** How long a WebDriver command may take before its step fails (a script's own waits are shorter). */
const COMMAND_TIMEOUT_MS = 30_000;
/** A navigation: the page's documents and scripts, on a busy machine. */
const NAVIGATION_TIMEOUT_MS = 45_000;
/** Starting MiniBrowser for a new session, or ending one. */
const SESSION_TIMEOUT_MS = 30_000;

/** Rejects after `ms` if `promise` has not settled by then, naming `what` (its late outcome is dropped). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`WebKit: ${what}: no answer from the driver within ${ms} ms`)), ms);
    }),
  ]);
}

/** `onStuck`: the session did not end when asked (the driver must be restarted before the next). */
function webDriver(session: WebDriver, onStuck: () => void): Driver {
  /** Runs the function's source with the argument in the page; an async function is awaited. */
  const run = <R>(source: string, arg: unknown, what = 'a script'): Promise<R> =>
    within(COMMAND_TIMEOUT_MS, what, session.executeScript<R>(`return (${source})(arguments[0]);`, arg ?? null));
  /**
   * After a navigation, until the new document answers a script: WebKitGTK's driver never answers
   * the first script sent while the document is still loading (seen with 2.50), so short probes
   * are sent, each abandoned after a second, until one comes back.
   */
  const settle = () =>
    within(
      NAVIGATION_TIMEOUT_MS,
      'the document answering a script after navigating',
      session.wait(
        () =>
          within(1_000, 'a probe', session.executeScript('return document.readyState')).then(
            () => true,
            () => false,
          ),
        30_000,
        'WebKit: the document did not answer a script after navigating',
      ),
    );
  let closed = false;
  return {
    engine: 'webkit',
    goto: async (path) => {
      const href = new URL(path, HOST_URL).href;
      await within(NAVIGATION_TIMEOUT_MS, `opening ${href}`, session.get(href));
      await settle();
    },
    reload: async () => {
      await within(NAVIGATION_TIMEOUT_MS, 'reloading', session.navigate().refresh());
      await settle();
    },
    // The page's history.back(), which is what the browser's Back does for the app (popstate):
    // WebKitGTK's driver Back waits for a page load that a same-document navigation never has.
    back: async () => {
      await within(COMMAND_TIMEOUT_MS, 'history.back()', session.executeScript('history.back()'));
      await settle();
    },
    // As Playwright does before a click: the element must have stopped moving (a page or an
    // overlay sliding in), else WebDriver finds it "not interactable" or the pointer misses it.
    click: async (selector) => {
      let lastError: unknown;
      const clicked = await within(
        COMMAND_TIMEOUT_MS,
        `clicking ${selector}`,
        session.wait(async () => {
          try {
            const element = await session.findElement({ css: selector });
            const still = await run<boolean>(
              `(el) => new Promise((resolve) => {
                  // WebDriver's own scrolling misses the app's scrolling page (a nested scroller).
                  el.scrollIntoView({ block: 'center', inline: 'nearest' });
                  const at = () => JSON.stringify(el.getBoundingClientRect());
                  const before = at();
                  requestAnimationFrame(() => requestAnimationFrame(() => resolve(at() === before)));
                })`,
              element,
            );
            if (!still) return false;
            await element.click();
            return true;
          } catch (error) {
            lastError = error;
            return false;
          }
        }, FIND_TIMEOUT_MS),
      ).catch((error: unknown) => {
        lastError ??= error;
        return false;
      });
      if (!clicked)
        throw new Error(`WebKit: could not click ${selector}`, lastError ? { cause: lastError } : undefined);
    },
    type: async (selector, text) => {
      await within(
        COMMAND_TIMEOUT_MS,
        `typing into ${selector}`,
        (async () => {
          const element: WebElement = await session.findElement({ css: selector });
          await element.clear();
          await element.sendKeys(text);
        })(),
      );
    },
    press: async (key) => {
      const { modifier, key: code } = KEYS[key];
      const actions = session.actions();
      if (modifier) actions.keyDown(modifier);
      actions.keyDown(code).keyUp(code);
      if (modifier) actions.keyUp(modifier);
      await within(COMMAND_TIMEOUT_MS, `pressing ${key}`, actions.perform());
    },
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => run<R>(fn.toString(), arg),
    evaluateWithLibrary: async <R>(library: string, fn: () => R | Promise<R>) => {
      await within(COMMAND_TIMEOUT_MS, 'loading a library into the page', session.executeScript(library));
      return run<R>(fn.toString(), null);
    },
    // The window's outer size includes the browser's own bars: size it, measure, correct. The
    // window manager applies a size after the command returns, so the page is read once it has
    // stopped changing (a read right away once gave 368 for 390).
    setViewport: async (width, height) => {
      const window = session.manage().window();
      const settledInner = async () => {
        const read = () => run<{ w: number; h: number }>('() => ({ w: innerWidth, h: innerHeight })', null);
        let last = await read();
        for (let reads = 0; reads < 20; reads += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const now = await read();
          if (now.w === last.w && now.h === last.h) return now;
          last = now;
        }
        return last;
      };
      let outer = { width, height };
      for (let tries = 0; tries < 3; tries += 1) {
        await within(COMMAND_TIMEOUT_MS, 'sizing the window', window.setRect(outer));
        const inner = await settledInner();
        if (inner.w === width && inner.h === height) return;
        outer = { width: outer.width + width - inner.w, height: outer.height + height - inner.h };
      }
      throw new Error(`WebKit: the page could not be made ${width} × ${height} CSS px`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // A session that does not end would block the driver's next one (it runs one at a time).
      await within(SESSION_TIMEOUT_MS, 'ending the session', session.quit()).catch(onStuck);
    },
  };
}
