import { isMissingCodeError, MISSING_CODE_EVENT, reportMissingCode, type MissingCodeDetail } from './index';

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
  it('tells the page which remote lacks code', () => {
    const seen: MissingCodeDetail[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent<MissingCodeDetail>).detail);
    window.addEventListener(MISSING_CODE_EVENT, listener);
    reportMissingCode('signup');
    window.removeEventListener(MISSING_CODE_EVENT, listener);
    expect(seen).toEqual([{ remote: 'signup' }]);
  });
});
