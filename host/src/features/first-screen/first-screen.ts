import type { Language, ShellApi } from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import type { i18n as I18nInstance } from 'i18next';
import { startTransition, type ReactNode } from 'react';
import { createRoot, type Root, type RootOptions } from 'react-dom/client';
import type { RemoteName } from '../../config/runtime-config';
import { takeInputCapture } from './hand-off';
import type { UserInputCapture } from './user-input';

/** A screen the page arrived with (composed by the server), waiting for its code to hydrate it. */
export interface PrerenderedScreen {
  readonly remote: RemoteName;
  readonly language: Language;
  /** The element holding the screen's HTML: the root its code hydrates. */
  readonly element: HTMLElement;
  /** What the user does on it before it hydrates, held from the moment the page loader ran. */
  readonly userInput: UserInputCapture;
}

/** What a hydrated screen is given: the shell's services, as the main tree provides them. */
export interface ScreenContext {
  readonly shell: ShellApi;
  readonly i18n: I18nInstance;
}

/** The page's first screen, from adoption to release (see README.md beside this file). */
export interface FirstScreen {
  /** The prerendered screen, once, to the route of the remote it belongs to. */
  claim(remote: RemoteName): PrerenderedScreen | undefined;
  /** Whether the server's screen is on show (the shell's own page frame is hidden meanwhile). */
  isShown(): boolean;
  subscribe(listener: () => void): () => void;
  /**
   * The server's screen and frame go, held input is let go; listeners are told, and the shell's
   * frame on this page shows again. `leavingPage`: the shell is moving to another page, whose frame
   * is never hidden (`useFirstScreenShown` answers per page), so listeners are not told: telling
   * them would render the shell a second time, at once, before the next screen's first paint.
   * `isShown()` answers false from then on either way.
   */
  release(options?: { leavingPage?: boolean }): void;
  readonly screenContext: ScreenContext;
  /**
   * Renders the app. Beside an adopted screen, in an element of its own (React empties its
   * container, and a moved or re-inserted node is painted anew: a later largest paint), as a
   * transition (in slices, the screen being on show already); without one, at once.
   */
  mountShell(root: HTMLElement, app: ReactNode, options?: RootOptions): Root;
}

/**
 * Step 2: adopts the page's prerendered screen if it is the first route's (`remote`) and in the
 * language the app starts in (a stored choice the page's cookie did not carry yet renders on the
 * client). Anything else on the page is left for React to replace.
 */
export function adoptFirstScreen(
  root: HTMLElement,
  remote: RemoteName | null,
  language: Language,
  screenContext: ScreenContext,
): FirstScreen {
  const element = root.querySelector<HTMLElement>(`[${SCREEN_ATTRIBUTE}]`);
  const userInput = element ? takeInputCapture(element) : undefined;
  const ours =
    remote !== null &&
    element?.getAttribute(SCREEN_ATTRIBUTE) === remote &&
    element.getAttribute(SCREEN_LANGUAGE_ATTRIBUTE) === language;
  const adopted = ours && element && userInput ? { remote, language, element, userInput } : undefined;
  if (!adopted) userInput?.release();

  let available: PrerenderedScreen | undefined = adopted;
  const listeners = new Set<() => void>();
  return {
    screenContext,
    claim: (name) => (available?.remote === name ? available : undefined),
    isShown: () => available !== undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    release(options) {
      if (!available) return;
      available.userInput.release();
      // The server's page frame around the screen goes with it.
      (available.element.parentElement ?? available.element).remove();
      available = undefined;
      if (!options?.leavingPage) for (const listener of listeners) listener();
    },
    mountShell(container, app, options) {
      if (!adopted) {
        const appRoot = createRoot(container, options);
        appRoot.render(app);
        return appRoot;
      }
      const beside = document.createElement('div');
      beside.className = 'sg-app-root';
      container.append(beside);
      const appRoot = createRoot(beside, options);
      startTransition(() => appRoot.render(app));
      return appRoot;
    },
  };
}
