import {
  HttpError,
  SIGN_UP_OUTBOX_EVENT,
  SIGN_UP_OUTBOX_MAX_AGE_MS,
  SIGN_UP_OUTBOX_STORAGE_KEY,
  SIGN_UP_RESULT_STORAGE_KEY,
} from '@special-gift/shared';
import { createFakeHttp, createMemoryStorage } from '@special-gift/shared/testing';
import { waitFor } from '@testing-library/react';
import { sendQueuedSignUp, startSignUpOutbox } from './sign-up-outbox';

const QUEUED_AT = '2026-01-02T03:04:05.000Z';
const queued = {
  state: 'queued',
  body: { firstName: 'Ada', cardCode: '4111 1111 1111 1111' },
  idempotencyKey: 'key-1',
  queuedAt: QUEUED_AT,
};
const created = { id: 'x', firstName: 'Ada', email: 'ada@example.com', cardLast4: '1111', createdAt: QUEUED_AT };
const now = () => Date.parse(QUEUED_AT) + 60_000;

/** A lock manager that runs one holder at a time, as the Web Locks API does. */
function oneAtATime(): Pick<LockManager, 'request'> {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request: ((_name: string, callback: () => Promise<unknown>) => {
      const run = tail.then(callback);
      tail = run.catch(() => undefined);
      return run;
    }) as LockManager['request'],
  };
}

function setUp(entry: unknown = queued) {
  const storage = createMemoryStorage({ [SIGN_UP_OUTBOX_STORAGE_KEY]: entry });
  const http = createFakeHttp();
  return { storage, http, deps: { storage, http: http.client, now, locks: oneAtATime() } };
}

describe('sending the sign-up kept on the device', () => {
  it('sends it with its own idempotency key; once acknowledged, deletes it and keeps the result', async () => {
    const { storage, http, deps } = setUp();
    http.post.mockResolvedValueOnce(created);
    expect(await sendQueuedSignUp(deps)).toBe('sent');
    expect(http.post).toHaveBeenCalledWith('sign-ups', queued.body, { headers: { 'Idempotency-Key': 'key-1' } });
    expect(storage.data.has(SIGN_UP_OUTBOX_STORAGE_KEY)).toBe(false);
    expect(storage.data.get(SIGN_UP_RESULT_STORAGE_KEY)).toEqual({
      firstName: 'Ada',
      email: 'ada@example.com',
      cardLast4: '1111',
      createdAt: QUEUED_AT,
    });
  });

  it('of two senders at once (two tabs back online), only one sends', async () => {
    const { http, deps } = setUp();
    http.post.mockResolvedValue(created);
    expect((await Promise.all([sendQueuedSignUp(deps), sendQueuedSignUp(deps)])).sort()).toEqual(['none', 'sent']);
    expect(http.post).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a server error', new HttpError('http', 'down', 503)],
    ['too many attempts', new HttpError('http', 'slow down', 429)],
    ['no network', new HttpError('network', 'offline')],
    ['no answer in time', new HttpError('timeout', 'slow')],
  ])('after %s: keeps it as it was, to try again', async (_, error) => {
    const { storage, http, deps } = setUp();
    http.post.mockRejectedValueOnce(error);
    expect(await sendQueuedSignUp(deps)).toBe('retry');
    expect(storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual(queued);
  });

  it('refused (4xx): keeps its details with the refusal, for the shell to show', async () => {
    const { storage, http, deps } = setUp();
    http.post.mockRejectedValueOnce(
      new HttpError('http', 'taken', 409, {
        error: { code: 'card_already_registered', message: 'taken', fields: { cardCode: 'already_registered' } },
      }),
    );
    expect(await sendQueuedSignUp(deps)).toBe('refused');
    expect(storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual({
      state: 'refused',
      body: queued.body,
      queuedAt: QUEUED_AT,
      code: 'card_already_registered',
      fields: { cardCode: 'already_registered' },
    });
  });

  it('past its age: not sent, its details deleted, only the date kept to tell the user', async () => {
    const { storage, http, deps } = setUp();
    const late = { ...deps, now: () => Date.parse(QUEUED_AT) + SIGN_UP_OUTBOX_MAX_AGE_MS + 1 };
    expect(await sendQueuedSignUp(late)).toBe('expired');
    expect(http.post).not.toHaveBeenCalled();
    expect(storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual({ state: 'expired', queuedAt: QUEUED_AT });
  });

  it.each(['refused', 'review'])(
    'a refusal (%s) past the same age: its details (personal data) deleted too, only the date kept',
    async (state) => {
      const refused = { state, body: queued.body, queuedAt: QUEUED_AT, code: 'card_already_registered' };
      const { storage, http, deps } = setUp(refused);
      const late = { ...deps, now: () => Date.parse(QUEUED_AT) + SIGN_UP_OUTBOX_MAX_AGE_MS + 1 };
      expect(await sendQueuedSignUp(late)).toBe('expired');
      expect(http.post).not.toHaveBeenCalled();
      expect(storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual({ state: 'expired', queuedAt: QUEUED_AT });
    },
  );

  it('sends nothing when nothing is waiting, or only a refusal to show', async () => {
    for (const entry of [null, { state: 'refused', body: {}, queuedAt: QUEUED_AT }]) {
      const { http, deps } = setUp(entry);
      expect(await sendQueuedSignUp(deps)).toBe('none');
      expect(http.post).not.toHaveBeenCalled();
    }
  });
});

describe("the host's sender", () => {
  it('tells the user of a refused or expired one on start (any screen), and whenever a sender reports one', async () => {
    const refused = { state: 'refused', body: queued.body, queuedAt: QUEUED_AT };
    const { deps } = setUp(refused);
    const tellUnsent = jest.fn(() => Promise.resolve());
    startSignUpOutbox({ ...deps, tellUnsent });
    await waitFor(() => expect(tellUnsent).toHaveBeenCalledTimes(1));
    for (const state of ['refused', 'expired', 'sent', 'review'])
      window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state } }));
    expect(tellUnsent).toHaveBeenCalledTimes(3);
  });
});
