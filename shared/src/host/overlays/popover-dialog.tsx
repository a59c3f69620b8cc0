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
      // The layout size, not getBoundingClientRect(): while the entry animation scales the dialog
      // (sg-overlay-pop, 0.96) its box is 4 % small, and a popover placed by that box ended up to
      // 4 % of its width past the viewport's margin, clipped at a phone's edge in every engine.
      const placement = placePopover(
        anchor.getBoundingClientRect(),
        { width: dialog.offsetWidth, height: dialog.offsetHeight },
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
