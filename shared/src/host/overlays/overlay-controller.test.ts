import { createOverlayController } from './overlay-controller';

describe('createOverlayController', () => {
  it('resolves with the role and data it was dismissed with, and removes the entry', async () => {
    const controller = createOverlayController();
    const result = controller.alert({ header: 'Hi' });
    const [entry] = controller.getSnapshot();
    expect(entry?.kind).toBe('alert');
    expect(entry?.dismiss({ answer: 42 }, 'confirm')).toBe(true);
    await expect(result).resolves.toEqual({ role: 'confirm', data: { answer: 42 } });
    expect(controller.getSnapshot()).toEqual([]);
    expect(entry?.dismiss(undefined, 'again')).toBe(false);
  });

  it('keeps the snapshot reference until the stack changes and notifies subscribers', () => {
    const controller = createOverlayController();
    const listener = jest.fn();
    const unsubscribe = controller.subscribe(listener);
    const empty = controller.getSnapshot();
    expect(controller.getSnapshot()).toBe(empty);

    void controller.toast({ message: 'Saved', duration: 0 });
    const one = controller.getSnapshot();
    expect(one).not.toBe(empty);
    expect(controller.getSnapshot()).toBe(one);
    expect(listener).toHaveBeenCalledTimes(1);

    unsubscribe();
    controller.dismiss(one[0]?.id ?? '', undefined, 'x');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('dismissTop acts on the last dialog, skips toasts and honours backdropDismiss for the backdrop role', async () => {
    const controller = createOverlayController();
    const render = () => null;
    const first = controller.modal({ title: 'First', render });
    const second = controller.popover({ title: 'Second', render, backdropDismiss: false });
    void controller.toast({ message: 'Toast', duration: 0 });

    expect(controller.dismissTop()).toBe(false);
    expect(controller.getSnapshot().map((entry) => entry.kind)).toEqual(['modal', 'popover', 'toast']);

    expect(controller.dismissTop('cancel')).toBe(true);
    await expect(second).resolves.toEqual({ role: 'cancel', data: undefined });
    expect(controller.dismissTop()).toBe(true);
    await expect(first).resolves.toEqual({ role: 'backdrop', data: undefined });
    expect(controller.dismissTop()).toBe(false);
    expect(controller.getSnapshot().map((entry) => entry.kind)).toEqual(['toast']);
  });

  it('runs the cancel button handler once on a cancel-like dismissal only', () => {
    const controller = createOverlayController();
    const onCancel = jest.fn(() => false);
    const buttons = [{ text: 'Cancel', role: 'cancel', handler: onCancel }, { text: 'OK' }];

    void controller.actionSheet({ header: 'Pick', buttons });
    controller.dismissTop('backdrop');
    expect(onCancel).toHaveBeenCalledTimes(1);

    void controller.alert({ header: 'Sure?', buttons });
    controller.getSnapshot()[0]?.dismiss(undefined, 'confirm');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  describe('toast timers', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('dismisses with role timeout after the default 4000 ms', async () => {
      const controller = createOverlayController();
      const result = controller.toast({ message: 'Saved' });
      jest.advanceTimersByTime(3999);
      expect(controller.getSnapshot()).toHaveLength(1);
      jest.advanceTimersByTime(1);
      await expect(result).resolves.toEqual({ role: 'timeout', data: undefined });
      expect(controller.getSnapshot()).toHaveLength(0);
    });

    it('keeps a toast with duration 0 and clears the timer of a toast dismissed early', async () => {
      const controller = createOverlayController();
      void controller.toast({ message: 'Sticky', duration: 0 });
      const early = controller.toast({ message: 'Short', duration: 1000 });
      controller.getSnapshot()[1]?.dismiss('undo', 'undo');
      jest.advanceTimersByTime(60_000);
      await expect(early).resolves.toEqual({ role: 'undo', data: 'undo' });
      expect(controller.getSnapshot().map((entry) => entry.options)).toEqual([{ message: 'Sticky', duration: 0 }]);
      expect(jest.getTimerCount()).toBe(0);
    });
  });
});
