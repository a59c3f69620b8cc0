import { needsXsrfHeader, readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from '.';

// The same function reads document.cookie in the browser and the Cookie request header in the API.
describe('readCookie', () => {
  it('takes the first of duplicate cookies, and needs a "=" to see a value', () => {
    expect(readCookie('XSRF-TOKEN=first; XSRF-TOKEN=second', 'XSRF-TOKEN')).toBe('first');
    expect(readCookie('XSRF-TOKEN', 'XSRF-TOKEN')).toBeNull();
  });

  it('finds a cookie among others, ignoring the spaces around its name', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc123; b=2', 'XSRF-TOKEN')).toBe('abc123');
    expect(readCookie('XSRF-TOKEN=first', 'XSRF-TOKEN')).toBe('first');
    expect(readCookie('  XSRF-TOKEN=spaced;other=x', 'XSRF-TOKEN')).toBe('spaced');
  });

  it('URI-decodes the value and keeps "=" inside it', () => {
    expect(readCookie('XSRF-TOKEN=a%20b%3Dc', 'XSRF-TOKEN')).toBe('a b=c');
    expect(readCookie('XSRF-TOKEN=base64==', 'XSRF-TOKEN')).toBe('base64==');
  });

  it('returns null when the cookie is absent, only a prefix matches, or the value cannot be decoded', () => {
    expect(readCookie('', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('a=1; b=2', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('XSRF-TOKEN-OLD=x; MY-XSRF-TOKEN=y', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('XSRF-TOKEN=%E0%A4%A', 'XSRF-TOKEN')).toBeNull();
  });

  it('returns an empty string for a cookie that is present but empty', () => {
    expect(readCookie('XSRF-TOKEN=; a=1', 'XSRF-TOKEN')).toBe('');
  });

  it('uses the names Angular used, so the API needs no change', () => {
    expect(XSRF_COOKIE_NAME).toBe('XSRF-TOKEN');
    expect(XSRF_HEADER_NAME).toBe('X-XSRF-TOKEN');
  });
});

describe('needsXsrfHeader', () => {
  const origin = 'https://app.special-gift.example';

  it.each(['GET', 'HEAD', 'get', 'head'])('is false for the safe method %s', (method) => {
    expect(needsXsrfHeader(method, '/api/v1/sign-ups', origin)).toBe(false);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'post'])('is true for %s to a relative URL', (method) => {
    expect(needsXsrfHeader(method, '/api/v1/sign-ups', origin)).toBe(true);
    expect(needsXsrfHeader(method, 'sign-ups', origin)).toBe(true);
  });

  it('is true for an absolute URL on the same origin', () => {
    expect(needsXsrfHeader('POST', 'https://app.special-gift.example/api/v1/sign-ups', origin)).toBe(true);
  });

  it('is false for another origin, including another scheme, port or a protocol-relative host', () => {
    expect(needsXsrfHeader('POST', 'https://evil.example/collect', origin)).toBe(false);
    expect(needsXsrfHeader('POST', 'http://app.special-gift.example/api', origin)).toBe(false);
    expect(needsXsrfHeader('POST', 'https://app.special-gift.example:8443/api', origin)).toBe(false);
    expect(needsXsrfHeader('POST', '//evil.example/collect', origin)).toBe(false);
  });

  it('is false for a URL that cannot be parsed', () => {
    expect(needsXsrfHeader('POST', 'http://[broken', origin)).toBe(false);
  });
});
