const FOCUSABLE = [
  'button:not([disabled])',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[contenteditable=""]',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/**
 * Where focus goes when a dialog opens. An element marked `autofocus` / `data-autofocus` wins
 * (React's `autoFocus` fires before the dialog is shown, so it cannot work here).
 */
export function initialFocusTarget(dialog: HTMLDialogElement, first: 'button' | 'focusable'): HTMLElement {
  const marked = firstOutsidePopover(dialog, '[autofocus], [data-autofocus]');
  return marked ?? firstOutsidePopover(dialog, first === 'button' ? 'button:not([disabled])' : FOCUSABLE) ?? dialog;
}

/** Toasts ride along inside the top dialog (in a popover); focus must never start there. */
function firstOutsidePopover(dialog: HTMLDialogElement, selector: string): HTMLElement | undefined {
  return Array.from(dialog.querySelectorAll<HTMLElement>(selector)).find((element) => !element.closest('[popover]'));
}

/**
 * The elements Tab stops at inside `container`, in document order (the app sets no positive
 * tabindex, so that is the sequential focus order). Without checkVisibility (jsdom) all count.
 */
function tabStops(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.closest('[inert]') &&
      (typeof element.checkVisibility !== 'function' || element.checkVisibility({ visibilityProperty: true })),
  );
}

/**
 * Keeps Tab and Shift+Tab inside a modal dialog, wrapping at its ends (the APG's modal dialog
 * pattern, as Ionic's overlays do). A native modal dialog only makes the page behind inert: Tab
 * from its last stop leaves the page for the browser's own UI (Chromium, Firefox), and in a dialog
 * with nothing to tab to (the card-help popover) the first Tab loses focus for good. Call it from
 * the dialog's keydown.
 */
export function keepTabInside(dialog: HTMLDialogElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const active = document.activeElement;
  if (!active || !dialog.contains(active)) return;
  const stops = tabStops(dialog);
  const FOLLOWING = Node.DOCUMENT_POSITION_FOLLOWING;
  const PRECEDING = Node.DOCUMENT_POSITION_PRECEDING;
  // The browser moves to the next stop after the focused element (before it with Shift): only
  // where there is none would focus leave the dialog.
  const next = event.shiftKey
    ? stops.filter((stop) => active.compareDocumentPosition(stop) & PRECEDING).at(-1)
    : stops.find((stop) => active.compareDocumentPosition(stop) & FOLLOWING);
  if (next) return;
  event.preventDefault();
  (event.shiftKey ? stops.at(-1) : stops[0])?.focus();
}

/** The element that had focus, as something we can focus again later. */
export function currentFocus(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * Puts focus back on the opener unless it has already moved somewhere deliberate
 * (e.g. into another overlay that is still open).
 */
export function restoreFocus(opener: HTMLElement | null, dialog: HTMLDialogElement): void {
  if (!opener || !opener.isConnected) return;
  const active = document.activeElement;
  const focusIsLost = !active || active === document.body || dialog.contains(active);
  if (focusIsLost) opener.focus();
}
