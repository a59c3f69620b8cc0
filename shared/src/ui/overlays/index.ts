// The overlay layer the host shell hands to every remote (the `Overlays` contract).
export { createOverlayController } from './overlay-controller';
export { OverlayHost, type OverlayHostProps } from './overlay-host';
export type { OverlayController, OverlayEntry, OverlayLabels } from './overlay-types';
