import { afterNextPaint } from './timing';

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
