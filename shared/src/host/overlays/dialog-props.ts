import type { ReactNode } from 'react';
import type { DialogEntry, OverlayLabels } from './overlay-types';

/** What OverlayHost gives each dialog component. */
export interface DialogProps<K extends DialogEntry['kind']> {
  readonly entry: Extract<DialogEntry, { kind: K }>;
  readonly labels: OverlayLabels;
  /** Escape / backdrop click: dismiss the top overlay with role `backdrop` if it allows that. */
  readonly onBackdrop: () => void;
  /**
   * The toast region, given to the topmost dialog only. A modal dialog makes everything outside it
   * inert (also top-layer elements above it, whatwg/html#9936), which would hide the live region
   * from screen readers and make toast buttons unclickable; inside the dialog it stays live.
   */
  readonly toastRegion?: ReactNode;
}
