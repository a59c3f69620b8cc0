import { isQueuedSignUp } from './sign-up';

describe('a kept sign-up', () => {
  const body = { firstName: 'Ada' };
  it.each([
    [{ state: 'queued', body, idempotencyKey: 'k', queuedAt: 'x' }, true],
    [{ state: 'queued', body, queuedAt: 'x' }, false], // no key: it could be stored twice
    [{ state: 'refused', body, queuedAt: 'x', code: 'conflict' }, true],
    [{ state: 'review', body, queuedAt: 'x' }, true],
    [{ state: 'review', queuedAt: 'x' }, false], // nothing to put back in the form
    [{ state: 'expired', queuedAt: 'x' }, true],
    [{ state: 'sent', queuedAt: 'x' }, false],
    [null, false],
  ])('%j is one: %s', (value, expected) => {
    expect(isQueuedSignUp(value)).toBe(expected);
  });
});
