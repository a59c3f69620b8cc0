import { useId, useLayoutEffect, type RefObject } from 'react';
import type { DialogProps } from './dialog-props';
import { placePopover } from './popover-position';
import { useOverlayDialog } from './use-native-dialog';

export function PopoverDialog({ entry, onBackdrop, toastRegion }: DialogProps<'popover'>) {
  const { title, render, anchor, backdropDismiss = true } = entry.options;
  const titleId = `${useId()}-title`;

  const ref = useOverlayDialog(entry, { initialFocus: 'focusable', backdropDismiss, onBackdrop });
  // Runs after the dialog is shown (declared after useNativeDialog), so it can be measured.
  useAnchorPosition(ref, anchor);

  return (
    <dialog
      ref={ref}
      className={`sg-overlay sg-popover${anchor ? ' sg-popover--anchored' : ''}`}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <div className="sg-overlay__surface sg-popover__surface">
        <h2 id={titleId} className="sg-popover__title">
          {title}
        </h2>
        <div className="sg-popover__content">{render(entry.dismiss)}</div>
      </div>
      {toastRegion}
    </dialog>
  );
}

/** Writes the placement into CSS custom properties; the stylesheet maps them to logical insets. */
function useAnchorPosition(ref: RefObject<HTMLDialogElement | null>, anchor: HTMLElement | null | undefined) {
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || !anchor) return undefined;
    const update = () => {
      const box = dialog.getBoundingClientRect();
      const placement = placePopover(
        anchor.getBoundingClientRect(),
        { width: box.width, height: box.height },
        { width: document.documentElement.clientWidth, height: window.innerHeight },
        getComputedStyle(dialog).direction === 'rtl',
      );
      dialog.style.setProperty('--sg-popover-block-start', `${placement.blockStart}px`);
      dialog.style.setProperty('--sg-popover-inline-start', `${placement.inlineStart}px`);
      dialog.dataset.side = placement.side;
    };
    update();
    window.addEventListener('resize', update);
    // Content that loads later changes the popover's size, and with it the room it needs.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : undefined;
    observer?.observe(dialog);
    return () => {
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [ref, anchor]);
}
