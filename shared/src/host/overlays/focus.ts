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
