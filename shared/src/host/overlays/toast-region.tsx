import { useLayoutEffect, useRef } from 'react';
import { OverlayButtonView } from './overlay-button';
import type { ToastEntry } from './overlay-types';
import { raiseToTop } from './top-layer';
import { useButtonPress } from './use-button-press';

export interface ToastRegionProps {
  readonly toasts: readonly ToastEntry[];
}

/**
 * Always rendered, so the live region exists before a toast is inserted (screen readers only
 * announce changes to regions they already know). A manual popover puts it in the top layer, above
 * the dialogs; it never takes focus. OverlayHost mounts it inside the topmost dialog, whose own
 * showModal() then raises it again (see useNativeDialog).
 */
export function ToastRegion({ toasts }: ToastRegionProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) raiseToTop(ref.current);
  }, []);

  return (
    <div ref={ref} className="sg-toast-region" popover="manual" role="status" aria-live="polite" aria-atomic="true">
      {toasts.map((toast) => (
        <Toast key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function Toast({ toast }: { readonly toast: ToastEntry }) {
  const { message, buttons = [] } = toast.options;
  const press = useButtonPress(toast.dismiss);
  return (
    <div className="sg-toast">
      <p className="sg-toast__message">{message}</p>
      {buttons.length > 0 ? (
        <div className="sg-toast__buttons">
          {buttons.map((button, index) => (
            <OverlayButtonView key={index} base="sg-toast__button" button={button} onPress={press} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
