import { placePopover } from './popover-position';

const viewport = { width: 400, height: 800 };
const size = { width: 200, height: 100 };
const anchorAt = (top: number, left: number) => ({ top, bottom: top + 40, left, right: left + 80 });

describe('placePopover', () => {
  it('sits below the anchor, start edges aligned', () => {
    expect(placePopover(anchorAt(100, 50), size, viewport, false)).toEqual({
      side: 'below',
      blockStart: 148,
      inlineStart: 50,
    });
  });

  it('flips above when there is no room below', () => {
    expect(placePopover(anchorAt(700, 50), size, viewport, false)).toEqual({
      side: 'above',
      blockStart: 592,
      inlineStart: 50,
    });
  });

  it('measures from the right edge in RTL and stays inside the viewport', () => {
    // Anchor's right edge is 20px from the viewport's right edge: that is its inline start in RTL.
    expect(placePopover(anchorAt(100, 300), size, viewport, true).inlineStart).toBe(20);
    // Near the inline end it is pushed back in, keeping an 8px margin.
    expect(placePopover(anchorAt(100, 0), size, viewport, true).inlineStart).toBe(192);
    expect(placePopover(anchorAt(100, 350), size, viewport, false).inlineStart).toBe(192);
  });

  it('uses the roomier side and clamps when it fits on neither', () => {
    const tall = { width: 200, height: 500 };
    const placement = placePopover(anchorAt(300, 50), tall, viewport, false);
    expect(placement.side).toBe('below');
    expect(placement.blockStart).toBe(292);
  });
});
