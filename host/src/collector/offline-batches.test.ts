import { DROPPED_BATCHES_KEY, KEPT_BATCHES_KEY, MAX_KEPT_BATCHES, sendKept, sendOrKeep } from './offline-batches';

describe('telemetry batches made offline', () => {
  beforeEach(() => localStorage.clear());

  it('online: sent at once, nothing kept', () => {
    const send = jest.fn();
    sendOrKeep('{"a":1}', send, localStorage, true);
    expect(send).toHaveBeenCalledWith('{"a":1}');
    expect(localStorage.getItem(KEPT_BATCHES_KEY)).toBeNull();
  });

  it('offline: kept, at most the newest few, the others dropped and counted', () => {
    const send = jest.fn();
    for (let i = 0; i < MAX_KEPT_BATCHES + 2; i++) sendOrKeep(`{"n":${i}}`, send, localStorage, false);
    expect(send).not.toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem(KEPT_BATCHES_KEY) ?? '[]')).toEqual(['{"n":2}', '{"n":3}', '{"n":4}']);
    expect(localStorage.getItem(DROPPED_BATCHES_KEY)).toBe('2');
  });

  it('the next page online sends each kept batch once, then keeps none', () => {
    sendOrKeep('{"n":1}', jest.fn(), localStorage, false);
    sendOrKeep('{"n":2}', jest.fn(), localStorage, false);
    const send = jest.fn();
    sendKept(send, localStorage, false); // still offline: they wait
    expect(send).not.toHaveBeenCalled();
    sendKept(send, localStorage, true);
    expect(send.mock.calls).toEqual([['{"n":1}'], ['{"n":2}']]);
    sendKept(send, localStorage, true);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem(KEPT_BATCHES_KEY, 'not json');
    const send = jest.fn();
    sendKept(send, localStorage, true);
    expect(send).not.toHaveBeenCalled();
  });
});
