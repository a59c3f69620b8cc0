import { isLanguage, type Language } from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import type { RemoteName } from '../../config/runtime-config';
import { captureUserInput, type UserInputCapture } from './replay-user-input';

/** A screen the page arrived with (composed by the server), waiting for its code to hydrate it. */
export interface PrerenderedScreen {
  readonly remote: RemoteName;
  readonly language: Language;
  /** The element holding the screen's HTML: the root its code hydrates. */
  readonly element: HTMLElement;
  /** What the user does on it before it hydrates, held from the moment the page loader runs. */
  readonly userInput: UserInputCapture;
  /** The server's page frame around it, removed with it. */
  readonly frame: HTMLElement | null;
}

/** Where the page loader leaves the input it holds for the app (two bundles: a global is the one channel). */
const EARLY_INPUT = Symbol.for('special-gift.prerendered-screen-input');
type EarlyInput = { element: HTMLElement; capture: UserInputCapture };
type WithEarlyInput = { [EARLY_INPUT]?: EarlyInput };

/**
 * Run by the page loader before the app's code: holds taps and submits on the prerendered screen
 * in `document` from then on, for the app to replay once the screen has hydrated. Returns the
 * screen, if the page has one.
 */
export function holdInputUntilTheApp(document: Document): HTMLElement | null {
  const element = document.querySelector<HTMLElement>(`[${SCREEN_ATTRIBUTE}]`);
  if (element) (window as WithEarlyInput)[EARLY_INPUT] = { element, capture: captureUserInput(element) };
  return element;
}

/** The loader's capture for `element`, or a new one (a page without the loader, e.g. in tests). */
function inputCaptureFor(element: HTMLElement): UserInputCapture {
  const early = (window as WithEarlyInput)[EARLY_INPUT];
  delete (window as WithEarlyInput)[EARLY_INPUT];
  return early?.element === element ? early.capture : captureUserInput(element);
}

/**
 * The first route's prerendered screen in `root`, if the page came with one for `remote`. Nothing
 * in it moves: a re-inserted stylesheet or node is styled and painted anew (a later largest paint).
 * Its stylesheet link (through the host) goes with its frame; by then the federation runtime has
 * loaded the screen's own, from the remote, as it does without prerendering.
 */
export function takePrerenderedScreen(root: HTMLElement, remote: RemoteName | undefined): PrerenderedScreen | undefined {
  const element = root.querySelector<HTMLElement>(`[${SCREEN_ATTRIBUTE}]`);
  if (!element) return undefined;
  const language = element.getAttribute(SCREEN_LANGUAGE_ATTRIBUTE);
  if (!remote || element.getAttribute(SCREEN_ATTRIBUTE) !== remote || !isLanguage(language)) return undefined;
  return { remote, language, element, userInput: inputCaptureFor(element), frame: element.parentElement };
}

/**
 * The container for the app's React root when the page came with a prerendered screen: a new
 * element in `root`, so that React, which empties its container, leaves the server's screen (and
 * the field the user may be typing in) where it is.
 */
export function besidePrerenderedScreen(root: HTMLElement): HTMLElement {
  const container = document.createElement('div');
  container.className = 'sg-app-root';
  root.append(container);
  return container;
}

/**
 * Hands the prerendered screen to its route once, and says whether it is on show: it stays where
 * the server put it (re-inserting it would paint it anew, and count as a later largest paint),
 * while the shell's own page frame is hidden. Released when its route goes or its code fails: the
 * server's frame goes and the shell's frame shows what the route renders.
 */
export function createPrerenderedScreens(screen: PrerenderedScreen | undefined) {
  let available = screen;
  const listeners = new Set<() => void>();
  return {
    claim(remote: RemoteName): PrerenderedScreen | undefined {
      return available?.remote === remote ? available : undefined;
    },
    isShown: (): boolean => available !== undefined,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    release(): void {
      if (!available) return;
      available.userInput.release();
      (available.frame ?? available.element).remove();
      available = undefined;
      for (const listener of listeners) listener();
    },
  };
}
export type PrerenderedScreens = ReturnType<typeof createPrerenderedScreens>;
