import { formatPageToken, parsePageToken } from './page-token';

const MAC = 'A'.repeat(43);
const claims = { id: 'abcdefghijk-_012345678', issuedAt: 1_790_000_000, bucket: 7, builds: 'intro=0123456789ab' };

describe('the page token wire format', () => {
  it('prints the claims and MAC, and reads them back', () => {
    const token = formatPageToken(claims, MAC);
    expect(token).toBe(`abcdefghijk-_012345678.1790000000.7.intro=0123456789ab.${MAC}`);
    expect(parsePageToken(token)).toEqual({ claims, mac: MAC });
  });

  it('carries an empty builds value', () => {
    const token = formatPageToken({ ...claims, id: 'x'.repeat(22), builds: '' }, MAC);
    expect(parsePageToken(token)?.claims.builds).toBe('');
  });

  it('refuses to print what it could not read back', () => {
    expect(() => formatPageToken({ ...claims, id: 'x'.repeat(22), bucket: 100 }, MAC)).toThrow('grammar');
    expect(() => formatPageToken({ ...claims, id: 'x'.repeat(22), builds: 'Intro=0123456789ab' }, MAC)).toThrow(
      'grammar',
    );
    expect(() => formatPageToken({ ...claims, id: 'x.y' }, MAC)).toThrow('grammar');
  });

  it('reads nothing from a malformed token', () => {
    const id = 'x'.repeat(22);
    for (const token of [
      '',
      `${id}.1.07.intro=0123456789ab.${MAC}`,
      `${id}.1.7.intro=0123456789ab.${MAC}A`,
      `${id}.1.7.intro=0123456789ab,.${MAC}`,
      `${id}.1.7.intro=0123456789ab.${MAC}.extra`,
    ])
      expect(parsePageToken(token)).toBeNull();
  });
});
