import { afterNextPaint, whenUserQuiet } from './timing';

describe('afterNextPaint', () => {
  let frames: FrameRequestCallback[];
  beforeEach(() => {
    jest.useFakeTimers();
    frames = [];
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('waits for the next frame, then for a task after it', () => {
    const work = jest.fn();
    afterNextPaint(work);
    jest.runAllTimers();
    expect(work).not.toHaveBeenCalled(); // tasks before the frame: not yet
    frames.splice(0).forEach((frame) => frame(performance.now()));
    expect(work).not.toHaveBeenCalled(); // in the frame's callbacks, before its paint: not yet
    jest.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('in a hidden tab, which paints no frame, runs in the next task', () => {
    jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const work = jest.fn();
    afterNextPaint(work);
    expect(frames).toHaveLength(0);
    jest.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);
  });
});

describe('whenUserQuiet', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('waits until the user has left the page alone that long; each tap or key restarts the wait', () => {
    const work = jest.fn();
    whenUserQuiet(work, 2000);
    jest.advanceTimersByTime(1500);
    window.dispatchEvent(new Event('pointerdown'));
    jest.advanceTimersByTime(1500);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    jest.advanceTimersByTime(1999);
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pointerdown'));
    jest.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1); // once, and its listeners are gone
  });

  it('runs at once when the page is hidden (the user left: the worker may finish on its own)', () => {
    const work = jest.fn();
    whenUserQuiet(work, 2000);
    jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(work).toHaveBeenCalledTimes(1);
    jest.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);
  });
});
