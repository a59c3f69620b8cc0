import { ApiError } from './api-error';
import { toApiError } from './error-handler';

describe('toApiError', () => {
  it('passes our own errors through', () => {
    const error = new ApiError(409, 'card_already_registered', 'Taken', { cardCode: 'already_registered' });
    expect(toApiError(error)).toBe(error);
  });

  it.each([
    ['entity.too.large', 413, 'payload_too_large'],
    ['entity.parse.failed', 400, 'invalid_json'],
    ['charset.unsupported', 415, 'unsupported_media_type'],
    ['encoding.unsupported', 415, 'unsupported_media_type'],
  ])('maps the body-parser error %s to %i %s', (type, status, code) => {
    expect(toApiError(Object.assign(new Error('parser detail'), { type, status }))).toMatchObject({ status, code });
  });

  it('turns other client errors into a generic 4xx bad_request', () => {
    expect(
      toApiError(Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400 })),
    ).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 10.89.0.5:5432'), { code: 'ECONNREFUSED' })],
    [
      "the database's name gone from the network",
      Object.assign(new Error('getaddrinfo ENOTFOUND postgres'), { code: 'ENOTFOUND' }),
    ],
    [
      'a server shutting down',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' })],
    ["pg-pool's lost connection", new Error('Connection terminated unexpectedly')],
    [
      "a transaction's next query on a connection the server ended",
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('answers 503 when the database cannot be reached: %s', (_what, error) => {
    expect(toApiError(error)).toMatchObject({ status: 503, code: 'not_ready' });
  });

  it('hides everything else behind a 500 internal_error', () => {
    for (const error of [new Error('SELECT failed: relation "sign_ups"'), 'a string', null, { status: 503 }]) {
      const apiError = toApiError(error);
      expect(apiError).toMatchObject({ status: 500, code: 'internal_error' });
      expect(apiError.message).not.toMatch(/SELECT|sign_ups/);
    }
  });
});
