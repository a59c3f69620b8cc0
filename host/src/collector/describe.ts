import {
  ERROR_NAME,
  IMAGE_BUILD_ID,
  OTHER_ROUTE,
  type Device,
  type LoadFailureKind,
  type LoadPhase,
} from '@special-gift/shared/telemetry';
import { publishedBuildFolder, SCREEN_ATTRIBUTE } from '@special-gift/shared/composition';
import { REMOTES } from '../config/remotes.generated';

/** How the collector words what the host noticed: enumerations only, never a message, URL or value. */

/** A landing path as the report groups it: one of the app's routes, or `other`. */
export function routeOf(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  return REMOTES.some((remote) => remote.route === path) ? path : OTHER_ROUTE;
}

/** The remote whose screen a path shows. */
export const remoteOfRoute = (pathname: string): string | null =>
  REMOTES.find((remote) => remote.route === (pathname.replace(/\/+$/, '') || '/'))?.name ?? null;

/** Each remote's build as this page runs it: its published build's id, or `image` (its own origin's). */
export function buildsOf(entries: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entries).map(([remote, entry]) => [remote, publishedBuildFolder(entry)?.build ?? IMAGE_BUILD_ID]),
  );
}

/** A coarse device class, from the screen alone: nothing that tells one phone from another. */
export function deviceOf(shortSide: number, coarsePointer: boolean): Device {
  if (coarsePointer && shortSide < 600) return 'phone';
  return coarsePointer && shortSide < 1100 ? 'tablet' : 'desktop';
}

/** An error's class name, when it is a plain identifier; anything else is a bare `Error` or `NonError`. */
export function errorNameOf(error: unknown): string {
  if (!(error instanceof Error)) return 'NonError';
  return ERROR_NAME.test(error.name) ? error.name : 'Error';
}

/** The remote whose files (the folder of its entry) a script URL is under; null: the host's or unknown. */
export function remoteOfScript(url: string | undefined, entries: Readonly<Record<string, string>>): string | null {
  if (!url) return null;
  let best: { remote: string; length: number } | null = null;
  for (const [remote, entry] of Object.entries(entries)) {
    const folder = new URL('.', new URL(entry, window.location.href)).href;
    const published = publishedBuildFolder(folder);
    const base = published?.folder === folder ? published.remoteBase : folder;
    if (url.startsWith(base) && base.length > (best?.length ?? 0)) best = { remote, length: base.length };
  }
  return best?.remote ?? null;
}

/** The script an error came from: the browser's `filename`, else the first URL in its stack. */
export function scriptOf(error: unknown, source: string | undefined): string | undefined {
  if (source) return source;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  return /(https?:\/\/[^\s)]+?)(?::\d+){0,2}\)?(?:\s|$)/m.exec(stack)?.[1];
}

/** The remote whose screen holds an element: a prerendered screen says so; else the shell's page frame holds the route's. */
export function remoteOfElement(element: Element | null, pathname: string): string | null {
  if (!element) return null;
  const screen = element.closest(`[${SCREEN_ATTRIBUTE}]`)?.getAttribute(SCREEN_ATTRIBUTE);
  if (screen) return screen;
  return element.closest('.sg-shell-page') ? remoteOfRoute(pathname) : null;
}

/** An element as tag and classes up to the screen (no ids, attributes or text): where a vital happened. */
export function targetOf(element: Element | null): string | undefined {
  const parts: string[] = [];
  for (let node = element; node && node !== document.body && parts.length < 4; node = node.parentElement) {
    const classes = Array.from(node.classList)
      .filter((name) => /^[A-Za-z_-][\w-]*$/.test(name))
      .slice(0, 2);
    parts.unshift([node.localName, ...classes].join('.'));
    if (node.hasAttribute(SCREEN_ATTRIBUTE)) break;
  }
  const target = parts.join('>');
  return target || undefined;
}

interface FailureShape {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly reason?: unknown;
  readonly cause?: unknown;
  readonly integrity?: unknown;
}

/**
 * Where a remote's load failed and how, from what remote-screens threw (a RemoteLoadError and its
 * cause): the entry script, the container it should register, the screen's chunk, its texts, or a
 * lazy chunk later; refused or cut, answered wrongly, too slow, or of another contract major.
 */
export function loadFailureOf(
  error: unknown,
  options: { lazy?: boolean; entryLoaded: boolean },
): { phase: LoadPhase; kind: LoadFailureKind } {
  if (options.lazy) return { phase: 'lazy_chunk', kind: 'network' };
  const failure = (typeof error === 'object' && error !== null ? error : {}) as FailureShape;
  if (failure.reason === 'incompatible') return { phase: 'container', kind: 'incompatible' };
  if (failure.integrity === true) {
    const refused = loadFailureOf(failure.cause, options);
    return { phase: refused.phase, kind: 'integrity' };
  }
  if (failure.reason === 'timeout') return { phase: options.entryLoaded ? 'screen' : 'entry', kind: 'timeout' };
  const cause = (typeof failure.cause === 'object' && failure.cause !== null ? failure.cause : {}) as FailureShape;
  const message = typeof cause.message === 'string' ? cause.message : '';
  if (cause.name === 'TextsLoadError')
    return {
      phase: 'texts',
      kind: /HTTP \d{3}$/.test(message) ? 'http' : /network/.test(message) ? 'network' : 'script',
    };
  if (cause.name === 'ChunkLoadError')
    return { phase: 'screen', kind: cause.type === 'missing' ? 'script' : 'network' };
  if (cause.code === 'CSS_CHUNK_LOAD_FAILED') return { phase: 'screen', kind: 'network' };
  if (/RUNTIME-008|ScriptExternalLoadError|Loading script failed/i.test(message))
    return { phase: 'entry', kind: 'network' };
  return { phase: 'container', kind: 'script' };
}
