import { SCREEN_ATTRIBUTE } from '@special-gift/shared/composition';
import { captureUserInput, type UserInputCapture } from './user-input';

/**
 * Step 1 (the page loader, a bundle of its own): what it hands to the app. Two bundles share no
 * module instance, so a global symbol is the one channel.
 */
const HAND_OFF = Symbol.for('special-gift.first-screen.hand-off');
interface HandOff {
  readonly element: HTMLElement;
  readonly capture: UserInputCapture;
}
type WithHandOff = { [HAND_OFF]?: HandOff };

/**
 * Run by the page loader before the app's code: holds taps and submits on the prerendered screen
 * in `document` from then on, for the app to replay once the screen has hydrated. Returns the
 * screen, if the page has one.
 */
export function holdInputUntilTheApp(document: Document): HTMLElement | null {
  const element = document.querySelector<HTMLElement>(`[${SCREEN_ATTRIBUTE}]`);
  if (element) (window as WithHandOff)[HAND_OFF] = { element, capture: captureUserInput(element) };
  return element;
}

/** The loader's capture for `element`, taken once, or a new one (a page without the loader, e.g. in tests). */
export function takeInputCapture(element: HTMLElement): UserInputCapture {
  const handOff = (window as WithHandOff)[HAND_OFF];
  delete (window as WithHandOff)[HAND_OFF];
  return handOff?.element === element ? handOff.capture : captureUserInput(element);
}
