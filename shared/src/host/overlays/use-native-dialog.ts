import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { DismissOverlay } from './overlay-types';
import { currentFocus, initialFocusTarget, keepTabInside, restoreFocus } from './focus';
import { closeDialog, openModal, raiseToTop } from './top-layer';

export interface NativeDialogOptions {
  /** What receives focus on open: the first button (alert, action sheet) or the first focusable element. */
  readonly initialFocus: 'button' | 'focusable';
  readonly backdropDismiss: boolean;
  /** Escape or a backdrop click: the host dismisses the TOP overlay (if it allows it). */
  readonly onBackdrop: () => void;
  /** The browser closed this dialog on its own (see the `close` listener); dismiss this overlay. */
  readonly onClosedByBrowser: () => void;
}

/**
 * Shows `ref`'s <dialog> with showModal() for as long as the component is mounted: the browser
 * puts it in the top layer above earlier ones and makes everything else inert. We move focus in,
 * wrap Tab at the dialog's ends (the browser would let it leave for its own UI), route Escape /
 * backdrop clicks to the host, and restore focus on close.
 */
export function useNativeDialog(ref: RefObject<HTMLDialogElement | null>, options: NativeDialogOptions): void {
  // Latest options without re-running the open/close effect on every render.
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  const { initialFocus } = options;
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = currentFocus();
    const show = () => {
      openModal(dialog);
      // showModal() put the dialog on top of the top layer; popovers it carries (the toast region) go back above it.
      for (const popover of dialog.querySelectorAll<HTMLElement>(':scope > [popover]')) raiseToTop(popover);
      initialFocusTarget(dialog, initialFocus).focus();
    };
    show();

    // Handle Escape ourselves so the controller's stack stays the source of truth.
    const onCancel = (event: Event) => {
      event.preventDefault();
      latest.current.onBackdrop();
    };
    // Browsers may close a dialog without a cancelable `cancel` (e.g. a second Escape without user
    // activation in between). Follow along, or reopen it when backdrop dismissal is off.
    const onClose = () => {
      // `close` is queued: one from our own earlier close() (an effect re-run, as StrictMode does)
      // arrives after the dialog was shown again. Only a dialog that is still closed was closed.
      if (dialog.open) return;
      if (latest.current.backdropDismiss) {
        latest.current.onClosedByBrowser();
      } else {
        show();
      }
    };
    // Backdrop clicks land on the dialog element itself, outside its box. A press that started
    // inside (e.g. selecting text and releasing outside) is not a backdrop click.
    let pressStartedOutside = true;
    const onPointerDown = (event: PointerEvent) => {
      pressStartedOutside = isOutside(dialog, event);
    };
    const onClick = (event: MouseEvent) => {
      const outside = isOutside(dialog, event) && pressStartedOutside;
      pressStartedOutside = true;
      if (outside) latest.current.onBackdrop();
    };

    const onKeyDown = (event: KeyboardEvent) => keepTabInside(dialog, event);

    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClose);
    dialog.addEventListener('pointerdown', onPointerDown);
    dialog.addEventListener('click', onClick);
    dialog.addEventListener('keydown', onKeyDown);
    return () => {
      // Listeners go first so our own close() is not mistaken for the browser's.
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClose);
      dialog.removeEventListener('pointerdown', onPointerDown);
      dialog.removeEventListener('click', onClick);
      dialog.removeEventListener('keydown', onKeyDown);
      closeDialog(dialog);
      restoreFocus(opener, dialog);
    };
  }, [ref, initialFocus]);
}

function isOutside(dialog: HTMLDialogElement, event: MouseEvent): boolean {
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  const { clientX: x, clientY: y } = event;
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

/**
 * The dialog wiring every overlay shares: a ref for its <dialog>, shown while mounted, and a close
 * by the browser (when allowed) dismisses the entry with role `backdrop`.
 */
export function useOverlayDialog(
  entry: { readonly dismiss: DismissOverlay },
  options: Omit<NativeDialogOptions, 'onClosedByBrowser'>,
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useNativeDialog(ref, { ...options, onClosedByBrowser: () => entry.dismiss(undefined, 'backdrop') });
  return ref;
}
