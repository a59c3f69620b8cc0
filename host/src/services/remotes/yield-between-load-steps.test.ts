import { yieldBetweenLoadSteps } from './yield-between-load-steps';

/** Whether `promise` settles within microtasks alone (then, then, then…), before any task runs. */
async function settlesWithinMicrotasks(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return settled;
}

describe('yieldBetweenLoadSteps', () => {
  const plugin = yieldBetweenLoadSteps();
  // The runtime awaits what a hook returns: each step after these waits for a later task.
  const steps = [
    ['beforeInitRemote', plugin.beforeInitRemote],
    ['beforeGetExpose', plugin.beforeGetExpose],
    ['beforeExecuteFactory', plugin.beforeExecuteFactory],
  ] as const;

  it.each(steps)('%s lets the browser run a task before the next step', async (_name, hook) => {
    expect(hook).toBeInstanceOf(Function);
    const step = (hook as (...args: unknown[]) => Promise<void>)({});
    expect(await settlesWithinMicrotasks(step)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await settlesWithinMicrotasks(step)).toBe(true);
  });

  it('resolves to undefined: the runtime goes on with its own arguments and the next plugins', async () => {
    for (const [, hook] of steps)
      await expect((hook as (...args: unknown[]) => Promise<unknown>)({ id: 'intro/Screen' })).resolves.toBeUndefined();
  });
});
