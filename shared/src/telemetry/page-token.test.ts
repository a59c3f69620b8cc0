/** @jest-environment node */
import { createHmac } from 'node:crypto';
import {
  base64url,
  formatPageToken,
  mintPageToken,
  networkHash,
  networkOf,
  pageTokenPayload,
  parsePageToken,
  type HmacBytes,
} from './page-token';

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

describe('signing a page token (the composer) and what it covers', () => {
  // Node's HMAC stands in for the holder's (the composer's node:crypto, nginx's njs).
  const hmac: HmacBytes = (key, data) => new Uint8Array(createHmac('sha256', key).update(data).digest());
  const key = new TextEncoder().encode('k'.repeat(32));

  it('base64url prints what Node prints, at every length', () => {
    for (let length = 0; length < 40; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 97 + length * 31) % 256);
      expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it('a minted token parses back, its MAC over the payload and the environment, its id ending in the network hash', () => {
    const random8 = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const token = mintPageToken(hmac, key, 'production', {
      bucket: 7,
      builds: 'signup=0123456789ab',
      nowSeconds: 1_790_000_000,
      client: '203.0.113.9',
      random8,
    });
    const parsed = parsePageToken(token);
    expect(parsed?.claims).toEqual({
      id: Buffer.from(random8).toString('base64url') + networkHash(hmac, key, '203.0.113.77'),
      issuedAt: 1_790_000_000,
      bucket: 7,
      builds: 'signup=0123456789ab',
    });
    const expected = createHmac('sha256', key)
      .update(pageTokenPayload('production', parsed!.claims))
      .digest('base64url');
    expect(parsed?.mac).toBe(expected);
    expect(createHmac('sha256', key).update(pageTokenPayload('staging', parsed!.claims)).digest('base64url')).not.toBe(
      expected,
    );
  });

  it.each([
    ['203.0.113.9', '203.0.113.0/24'],
    ['::ffff:203.0.113.9', '203.0.113.0/24'],
    ['::FFFF:203.0.113.9', '203.0.113.0/24'],
    ['2001:db8:abcd:12ff::1', '2001:db8:abcd:1200::/56'],
    ['2001:0db8:abcd:1200:0:0:0:1', '2001:db8:abcd:1200::/56'],
    ['2001:db8::1', '2001:db8::/56'],
    ['fe80::1%eth0', 'fe80::/56'],
    ['::1', '::/56'],
    ['1:2:3:4:5:6:7:8', '1:2:3::/56'], // the /56 keeps 4's top byte, 00
    ['1:2:3:4ab:5:6:7:8', '1:2:3:400::/56'],
    ['64:ff9b::192.0.2.33', '64:ff9b::/56'],
    ['', 'unknown'],
    [undefined, 'unknown'],
    ['not an address', 'unknown'],
    ['1:2:3:4:5:6:7:8:9', 'unknown'],
    ['1::2::3', 'unknown'],
    ['256.1.1.1', 'unknown'],
  ])('the network of %s is %s', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });
});
