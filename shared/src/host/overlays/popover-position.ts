export interface Box {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface PopoverPlacement {
  /** px from the viewport's top edge. */
  readonly blockStart: number;
  /** px from the viewport's inline-start edge (the right edge in RTL), for `inset-inline-start`. */
  readonly inlineStart: number;
  readonly side: 'below' | 'above';
}

/** Gap between anchor and popover, and the minimum distance kept from the viewport edges. */
const GAP = 8;
const EDGE = 8;

/**
 * Below the anchor, flipped above when it only fits there (else the roomier side), start edges
 * aligned, and clamped into the viewport. Works in logical terms so RTL mirrors.
 */
export function placePopover(anchor: Box, popover: Size, viewport: Size, rtl: boolean): PopoverPlacement {
  const below = anchor.bottom + GAP;
  const above = anchor.top - GAP - popover.height;
  const fitsBelow = below + popover.height <= viewport.height - EDGE;
  const fitsAbove = above >= EDGE;
  const side = fitsBelow || (!fitsAbove && viewport.height - anchor.bottom >= anchor.top) ? 'below' : 'above';

  const anchorStart = rtl ? viewport.width - anchor.right : anchor.left;
  return {
    side,
    blockStart: clamp(side === 'below' ? below : above, EDGE, viewport.height - EDGE - popover.height),
    inlineStart: clamp(anchorStart, EDGE, viewport.width - EDGE - popover.width),
  };
}

/** Like Math.min(max(...)), but the lower bound wins when the popover is larger than the room. */
function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max));
}
