// The same function reads document.cookie in the browser and the Cookie header in the API.
import { readCookie } from './xsrf';

describe('readCookie (browser cookie string and Cookie request header)', () => {
  it('finds a cookie among others, trimming around names and values', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc ;b=2', 'XSRF-TOKEN')).toBe('abc');
  });

  it('URI-decodes the value', () => {
    expect(readCookie('t=a%2Bb%3D', 't')).toBe('a+b=');
  });

  it('takes the first of duplicate cookies', () => {
    expect(readCookie('t=first; t=second', 't')).toBe('first');
  });

  it('does not match a name that only contains the wanted one', () => {
    expect(readCookie('MY-XSRF-TOKEN=abc', 'XSRF-TOKEN')).toBeNull();
  });

  it('returns null when absent, valueless or undecodable', () => {
    expect(readCookie('', 't')).toBeNull();
    expect(readCookie('t', 't')).toBeNull();
    expect(readCookie('t=%E0%A4%A', 't')).toBeNull();
  });
});
