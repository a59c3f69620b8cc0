import { isLanguage, type Language } from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import type { RemoteName } from '../../config/runtime-config';

/** A screen the page arrived with (composed by the server), waiting for its code to hydrate it. */
export interface PrerenderedScreen {
  readonly remote: RemoteName;
  readonly language: Language;
  /** The element holding the screen's HTML: the root its code hydrates. */
  readonly element: HTMLElement;
}

/**
 * The first route's prerendered screen in `root`, if the page came with one for `remote`. Its
 * leading links (the screen's stylesheet and script) move to the head: the webpack runtime then
 * finds the stylesheet already there, and it stays when the screen is later replaced.
 */
export function takePrerenderedScreen(root: HTMLElement, remote: RemoteName | undefined): PrerenderedScreen | undefined {
  const element = root.querySelector<HTMLElement>(`[${SCREEN_ATTRIBUTE}]`);
  if (!element) return undefined;
  for (const link of Array.from(element.parentElement?.querySelectorAll('link') ?? [])) document.head.append(link);
  const language = element.getAttribute(SCREEN_LANGUAGE_ATTRIBUTE);
  if (!remote || element.getAttribute(SCREEN_ATTRIBUTE) !== remote || !isLanguage(language)) return undefined;
  return { remote, language, element };
}

/**
 * Hands the prerendered screen to its route once: a later visit to the route (after navigating
 * away, the screen's root was unmounted) renders it on the client as usual.
 */
export function createPrerenderedScreens(screen: PrerenderedScreen | undefined) {
  let available = screen;
  return {
    claim(remote: RemoteName): PrerenderedScreen | undefined {
      return available?.remote === remote ? available : undefined;
    },
    release(): void {
      available = undefined;
    },
  };
}
export type PrerenderedScreens = ReturnType<typeof createPrerenderedScreens>;
