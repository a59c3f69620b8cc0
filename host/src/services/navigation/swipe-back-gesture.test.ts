import { finishDurationMs, isCaptured, shouldComplete, smoothVelocity, startsInEdgeZone } from './swipe-back-gesture';

describe('startsInEdgeZone', () => {
  it('accepts touches within 50 px of the left edge in LTR', () => {
    expect(startsInEdgeZone(0, 400, false)).toBe(true);
    expect(startsInEdgeZone(50, 400, false)).toBe(true);
    expect(startsInEdgeZone(51, 400, false)).toBe(false);
    expect(startsInEdgeZone(390, 400, false)).toBe(false);
  });

  it('accepts touches within 50 px of the right edge in RTL', () => {
    expect(startsInEdgeZone(400, 400, true)).toBe(true);
    expect(startsInEdgeZone(350, 400, true)).toBe(true);
    expect(startsInEdgeZone(349, 400, true)).toBe(false);
    expect(startsInEdgeZone(10, 400, true)).toBe(false);
  });
});

describe('isCaptured', () => {
  it('needs at least 10 px toward the trailing edge', () => {
    expect(isCaptured(9, 0)).toBe(false);
    expect(isCaptured(10, 0)).toBe(true);
    expect(isCaptured(-30, 0)).toBe(false);
  });

  it('needs a mostly horizontal movement: 40 degrees at most', () => {
    const at = (degrees: number) => 100 * Math.tan((degrees * Math.PI) / 180);
    expect(isCaptured(100, at(39.9))).toBe(true);
    expect(isCaptured(100, -at(39.9))).toBe(true);
    expect(isCaptured(100, at(40.1))).toBe(false);
    expect(isCaptured(20, 40)).toBe(false);
  });
});

describe('smoothVelocity', () => {
  it('blends 70 % of the new sample with 30 % of the previous velocity', () => {
    expect(smoothVelocity(0, 10, 10)).toBeCloseTo(0.7);
    expect(smoothVelocity(1, 20, 10)).toBeCloseTo(0.7 * 2 + 0.3 * 1);
  });

  it('ignores samples that are not 0-100 ms apart', () => {
    expect(smoothVelocity(0.5, 10, 0)).toBe(0.5);
    expect(smoothVelocity(0.5, 10, -5)).toBe(0.5);
    expect(smoothVelocity(0.5, 10, 100)).toBe(0.5);
    expect(smoothVelocity(0.5, 10, 250)).toBe(0.5);
  });
});

describe('shouldComplete', () => {
  const width = 400;

  it('completes a flick faster than 0.2 px/ms, however short', () => {
    expect(shouldComplete(20, 0.21, width)).toBe(true);
    expect(shouldComplete(20, 0.2, width)).toBe(false);
  });

  it('completes a slow drag past half the width', () => {
    expect(shouldComplete(201, 0, width)).toBe(true);
    expect(shouldComplete(200, 0.1, width)).toBe(false);
  });

  it('cancels on any movement back toward the edge, even past half the width', () => {
    expect(shouldComplete(390, -0.01, width)).toBe(false);
    expect(shouldComplete(390, -1, width)).toBe(false);
  });
});

describe('finishDurationMs', () => {
  const width = 400;

  it('is the remaining distance over the release speed', () => {
    // Completing from 300 px: 100 px left at 0.5 px/ms.
    expect(finishDurationMs(300, 0.5, width, true)).toBeCloseTo(200);
    // Cancelling from 100 px: 100 px back at 1 px/ms (speed, whatever its sign).
    expect(finishDurationMs(100, -1, width, false)).toBeCloseTo(100);
  });

  it('is capped at 540 ms for slow or motionless releases', () => {
    expect(finishDurationMs(250, 0, width, true)).toBe(540);
    expect(finishDurationMs(100, 0.01, width, false)).toBe(540);
  });

  it('is 0 when 5 px or less remain', () => {
    expect(finishDurationMs(395, 0.1, width, true)).toBe(0);
    expect(finishDurationMs(5, 0.1, width, false)).toBe(0);
    expect(finishDurationMs(6, 1, width, false)).toBeCloseTo(6);
  });

  it('clamps a drag beyond the page into the page', () => {
    expect(finishDurationMs(900, 0.1, width, true)).toBe(0);
    expect(finishDurationMs(-50, 0.1, width, false)).toBe(0);
  });
});
