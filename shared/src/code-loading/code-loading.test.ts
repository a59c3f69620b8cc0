import {
  ANSWER_TIMEOUT_MS,
  isMissingCodeError,
  MISSING_CODE_EVENT,
  reportMissingCode,
  type MissingCodeDetail,
} from './index';

describe('isMissingCodeError', () => {
  it("recognises webpack's failed script and stylesheet chunks", () => {
    expect(isMissingCodeError(Object.assign(new Error('Loading chunk 12 failed.'), { name: 'ChunkLoadError' }))).toBe(
      true,
    );
    expect(
      isMissingCodeError(Object.assign(new Error('Loading CSS chunk 12 failed.'), { code: 'CSS_CHUNK_LOAD_FAILED' })),
    ).toBe(true);
  });

  it('leaves every other failure alone', () => {
    expect(isMissingCodeError(new DOMException('Permission denied', 'NotAllowedError'))).toBe(false);
    expect(isMissingCodeError(new Error('Loading chunk 12 failed.'))).toBe(false);
    expect(isMissingCodeError('ChunkLoadError')).toBe(false);
    expect(isMissingCodeError(null)).toBe(false);
  });
});

describe('reportMissingCode', () => {
  const chunkError = Object.assign(new Error('Loading chunk 12 failed.'), {
    name: 'ChunkLoadError',
    request: 'http://localhost:3002/card-scanner.0123abcd.js',
  });

  it('tells the page which remote lacks which file, and resolves with the host’s answer', async () => {
    const seen: MissingCodeDetail[] = [];
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<MissingCodeDetail>).detail;
      seen.push(detail);
      detail.respond?.(true);
    };
    window.addEventListener(MISSING_CODE_EVENT, listener);
    const updating = reportMissingCode('signup', chunkError);
    window.removeEventListener(MISSING_CODE_EVENT, listener);
    await expect(updating).resolves.toBe(true);
    expect(seen).toEqual([expect.objectContaining({ remote: 'signup', url: chunkError.request })]);
  });

  it(`resolves false when no host answers within ${ANSWER_TIMEOUT_MS / 1000} s: the code is not known to be gone`, async () => {
    jest.useFakeTimers();
    try {
      const updating = reportMissingCode('signup');
      jest.advanceTimersByTime(ANSWER_TIMEOUT_MS);
      await expect(updating).resolves.toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
