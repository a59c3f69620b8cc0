import { useCallback, useRef } from 'react';
import { isCancelRole, type OverlayButton } from '../../contract/overlays';
import { reportHandlerError } from './overlay-controller';
import type { DismissOverlay } from './overlay-types';

/**
 * Ionic's button rules for alerts, action sheets and toasts: a cancel-role button just dismisses
 * (the controller runs its handler); any other runs its handler first (awaited), `false` keeps the
 * overlay open, and then it dismisses with the button's data and role.
 */
export function useButtonPress(dismiss: DismissOverlay): (button: OverlayButton) => Promise<void> {
  // Ignores presses while an async handler is still running, so a double tap cannot run it twice.
  const running = useRef(false);
  return useCallback(
    async (button: OverlayButton) => {
      if (running.current) return;
      if (isCancelRole(button.role)) {
        dismiss(button.data, button.role);
        return;
      }
      running.current = true;
      let keepOpen = false;
      try {
        keepOpen = (await button.handler?.()) === false;
      } catch (error) {
        // As in Ionic, a failing handler is reported and the overlay still closes.
        reportHandlerError(error);
      } finally {
        running.current = false;
      }
      if (!keepOpen) dismiss(button.data, button.role);
    },
    [dismiss],
  );
}
