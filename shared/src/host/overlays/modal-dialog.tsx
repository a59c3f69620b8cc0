import { useId } from 'react';
import type { DialogProps } from './dialog-props';
import { useOverlayDialog } from './use-native-dialog';

export function ModalDialog({ entry, labels, onBackdrop, toastRegion }: DialogProps<'modal'>) {
  const { title, render, backdropDismiss = true, describedBy } = entry.options;
  const titleId = `${useId()}-title`;

  const ref = useOverlayDialog(entry, { initialFocus: 'focusable', backdropDismiss, onBackdrop });

  return (
    <dialog
      ref={ref}
      className="sg-overlay sg-modal"
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      tabIndex={-1}
    >
      <div className="sg-overlay__surface sg-modal__surface">
        <div className="sg-modal__header">
          <h2 id={titleId} className="sg-modal__title">
            {title}
          </h2>
          {/* An explicit close always works, even with backdropDismiss off. */}
          <button
            type="button"
            className="sg-overlay__button sg-modal__close"
            aria-label={labels.close}
            onClick={() => entry.dismiss(undefined, 'cancel')}
          >
            <svg
              className="sg-modal__close-icon"
              viewBox="0 0 24 24"
              width="24"
              height="24"
              aria-hidden="true"
              focusable="false"
            >
              <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="sg-modal__content">{render(entry.dismiss)}</div>
      </div>
      {toastRegion}
    </dialog>
  );
}
