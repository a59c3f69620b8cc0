import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { HOST_URL, STATE_DIR } from '../topology';
import { PHONE, type Driver, type Key } from './driver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? 'WebKitWebDriver';
export const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** The WebDriver server's port: a free one, chosen at launch (helpers share the machine). */
let driverPort = 0;
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
/** The W3C WebDriver element reference's key. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
/** W3C WebDriver's code points for the keys the suite presses. */
const KEY_CODES: Record<Key, string[]> = {
  Tab: ['\uE004'],
  'Shift+Tab': ['\uE008', '\uE004'],
  Enter: ['\uE007'],
  Escape: ['\uE00C'],
  Space: ['\uE00D'],
};

class WebDriverError extends Error {}

/** One W3C WebDriver command: JSON in, `value` out, the protocol's error as an exception. */
async function command<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  timeoutMs = 120_000,
): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${driverPort}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = (await response.json()) as { value: T & { error?: string; message?: string } };
  if (!response.ok) throw new WebDriverError(`${method} ${path}: ${answer.value.error}: ${answer.value.message}`);
  return answer.value;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A port the system says is free now (listen on 0, read it, close). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

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

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver, on a virtual display (xvfb-run): WebKitGTK has
 * no headless mode. One browser session per test, as the other engines get a fresh context.
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
  killStaleWebKit();
  driverPort = await freePort();
  if (await portOpen(driverPort)) throw new Error(`WebKitWebDriver: port ${driverPort} is already in use`);
  // Its own process group, so closing ends xvfb-run, Xvfb, the driver and the browsers it started.
  const server: ChildProcess = spawn(
    'xvfb-run',
    ['-a', '-s', `-screen 0 ${XVFB_SCREEN}`, WEBKIT_DRIVER, `--port=${driverPort}`],
    {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, XDG_CONFIG_HOME: config },
    },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  // A missing xvfb-run is an 'error' event (ENOENT), not an exit: it ends the wait below at once.
  let spawnError: Error | undefined;
  server.once('error', (error) => {
    spawnError = error;
  });
  if (server.pid) writeFileSync(WEBKIT_PID_FILE, `${server.pid}\n`);
  const deadline = Date.now() + 20_000;
  while (!(await portOpen(driverPort))) {
    if (Date.now() > deadline || server.exitCode !== null || spawnError)
      throw new Error(
        `WebKitWebDriver did not listen on ${driverPort} (are xvfb, xauth and webkit2gtk-driver installed?)` +
          (spawnError ? `: ${spawnError.message}` : ''),
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    open: async () => {
      const { sessionId } = await command<{ sessionId: string }>('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            pageLoadStrategy: 'eager',
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
          },
        },
      });
      const driver = webDriver(`/session/${sessionId}`);
      await driver.setViewport(PHONE.width, PHONE.height);
      return driver;
    },
    close: async () => {
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
    },
  };
}

function webDriver(session: string): Driver {
  const find = async (selector: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        const found = await command<Record<string, string>>('POST', `${session}/element`, {
          using: 'css selector',
          value: selector,
        });
        return found[ELEMENT];
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const keys = (codes: string[]) =>
    command('POST', `${session}/actions`, {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            ...codes.map((value) => ({ type: 'keyDown', value })),
            ...[...codes].reverse().map((value) => ({ type: 'keyUp', value })),
          ],
        },
      ],
    });
  /** Runs the function's source with the argument; a thrown error or rejection comes back as one. */
  const run = async <R>(source: string, arg: unknown): Promise<R> => {
    const outcome = await command<{ ok: R } | { error: string }>('POST', `${session}/execute/sync`, {
      script: `const arg = arguments[0];
        return Promise.resolve().then(() => (${source})(arg))
          .then((ok) => ({ ok: ok === undefined ? null : ok }), (error) => ({ error: String(error && error.stack || error) }));`,
      args: [arg ?? null],
    });
    if ('error' in outcome) throw new Error(`in the page: ${outcome.error}`);
    return outcome.ok;
  };
  /**
   * After a navigation, until the new document answers a script: WebKitGTK's driver never answers
   * the first script sent while the document is still loading (seen with 2.50), so short probes
   * are sent, each abandoned after a second, until one comes back.
   */
  const settle = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await command('POST', `${session}/execute/sync`, { script: 'return document.readyState', args: [] }, 1_000);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  };
  return {
    engine: 'webkit',
    goto: async (path) => {
      await command('POST', `${session}/url`, { url: new URL(path, HOST_URL).href });
      await settle();
    },
    reload: async () => {
      await command('POST', `${session}/refresh`, {});
      await settle();
    },
    // The page's history.back(), which is what the browser's Back does for the app (popstate):
    // WebKitGTK's driver Back waits for a page load that a same-document navigation never has.
    back: async () => {
      await command('POST', `${session}/execute/sync`, { script: 'history.back()', args: [] });
      await settle();
    },
    // As Playwright does before a click: the element must have stopped moving (a page or an
    // overlay sliding in), else WebDriver finds it "not interactable" or the pointer misses it.
    click: async (selector) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const element = await find(selector);
        try {
          await run<boolean>(
            `(el) => new Promise((resolve) => {
              // WebDriver's own scrolling misses the app's scrolling page (a nested scroller).
              el.scrollIntoView({ block: 'center', inline: 'nearest' });
              const at = () => JSON.stringify(el.getBoundingClientRect());
              const before = at();
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(at() === before)));
            })`,
            { [ELEMENT]: element },
          ).then((still) => {
            if (!still) throw new WebDriverError('still moving');
          });
          await command('POST', `${session}/element/${element}/click`, {});
          return;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    type: async (selector, text) => {
      const element = await find(selector);
      await command('POST', `${session}/element/${element}/clear`, {});
      await command('POST', `${session}/element/${element}/value`, { text });
    },
    press: async (key) => {
      await keys(KEY_CODES[key]);
    },
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => run<R>(fn.toString(), arg),
    evaluateWithLibrary: async <R>(library: string, fn: () => R | Promise<R>) => {
      await command('POST', `${session}/execute/sync`, { script: library, args: [] });
      return run<R>(fn.toString(), null);
    },
    // The window's outer size includes the browser's own bars: size it, measure, correct once.
    setViewport: async (width, height) => {
      await command('POST', `${session}/window/rect`, { width, height });
      const inner = await run<{ w: number; h: number }>('() => ({ w: innerWidth, h: innerHeight })', null);
      if (inner.w !== width || inner.h !== height)
        await command('POST', `${session}/window/rect`, {
          width: 2 * width - inner.w,
          height: 2 * height - inner.h,
        });
    },
    close: async () => {
      await command('DELETE', session).catch(() => undefined);
    },
  };
}
