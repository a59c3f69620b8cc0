import { HttpError } from '@special-gift/shared';
import type { ApiErrorBody, ApiErrorCode } from '@special-gift/shared/api';
import { classifySubmitFailure } from './submit-failure';

// `fields` as a string record: a newer API may name a field this form does not have.
const http = (status: number, code?: ApiErrorCode, fields?: Record<string, string>) =>
  new HttpError(
    'http',
    `HTTP ${status}`,
    status,
    code
      ? { error: { code, message: 'm', ...(fields ? { fields: fields as ApiErrorBody['error']['fields'] } : {}) } }
      : undefined,
  );

describe('classifySubmitFailure', () => {
  it('asks for a new idempotency key when the key was used for other values', () => {
    expect(classifySubmitFailure(http(422, 'idempotency_key_reused'))).toEqual({ kind: 'new-key' });
  });

  it('puts field errors the form knows on their fields, and drops fields it does not have', () => {
    expect(
      classifySubmitFailure(
        http(409, 'card_already_registered', { cardCode: 'already_registered', nickname: 'too_long' }),
      ),
    ).toEqual({
      kind: 'fields',
      errors: { cardCode: 'already_registered' },
    });
  });

  it.each([
    ['a 5xx', http(503, 'not_ready'), 'server'],
    ['a 5xx without a body', http(502), 'server'],
    ['a 429', http(429, 'rate_limited'), 'rate_limited'],
    ['a 4xx with no field the form knows', http(400, 'validation_failed', { nickname: 'required' }), 'rejected'],
    ['a timeout', new HttpError('timeout', 'slow'), 'timeout'],
    ['anything that is not an HTTP error', new TypeError('bug'), 'server'],
  ])('shows the alert for %s', (_, error, reason) => {
    expect(classifySubmitFailure(error)).toEqual({ kind: 'alert', reason });
  });

  it.each([
    ['no answer', new HttpError('network', 'failed')],
    ['an aborted request', new HttpError('aborted', 'aborted')],
  ])('words %s as offline only when the device is: online, our service could not be reached', (_, error) => {
    expect(classifySubmitFailure(error, false)).toEqual({ kind: 'alert', reason: 'network' });
    expect(classifySubmitFailure(error, true)).toEqual({ kind: 'alert', reason: 'unreachable' });
  });

  it("reads the device's network from navigator.onLine when not told", () => {
    const onLine = jest.spyOn(navigator, 'onLine', 'get');
    try {
      onLine.mockReturnValue(false);
      expect(classifySubmitFailure(new HttpError('network', 'failed'))).toEqual({ kind: 'alert', reason: 'network' });
      onLine.mockReturnValue(true);
      expect(classifySubmitFailure(new HttpError('network', 'failed'))).toEqual({
        kind: 'alert',
        reason: 'unreachable',
      });
    } finally {
      onLine.mockRestore();
    }
  });
});
