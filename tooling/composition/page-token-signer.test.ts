import { createHmac } from 'node:crypto';
import { networkHash, pageTokenPayload, parsePageToken } from '@special-gift/shared/telemetry';
import { createPageTokenSigner, hmacBytes } from './page-token-signer';

const KEY = new TextEncoder().encode('k'.repeat(32));
const OLD_KEY = new TextEncoder().encode('o'.repeat(32));

function signer(perMinute: number, keys: Uint8Array[] = [KEY]) {
  let now = Date.parse('2026-12-01T10:00:00.000Z');
  const sign = createPageTokenSigner({ keys, environment: 'production', perMinute, now: () => now });
  return { sign, advance: (ms: number) => (now += ms) };
}

describe('the Node composer’s page tokens', () => {
  it('signs with the first key, binding bucket, builds, environment and the network', () => {
    const { sign } = signer(60, [KEY, OLD_KEY]);
    const token = parsePageToken(sign(7, 'signup=0123456789ab', '198.51.100.4') ?? '');
    expect(token?.claims).toMatchObject({ bucket: 7, builds: 'signup=0123456789ab' });
    const mac = createHmac('sha256', KEY).update(pageTokenPayload('production', token!.claims)).digest('base64url');
    expect(token?.mac).toBe(mac);
    // The id's last 11 characters: the network's hash under the signing key (198.51.100.0/24).
    expect(token?.claims.id.slice(11)).toBe(networkHash(hmacBytes, KEY, '198.51.100.250'));
    expect(token?.claims.id.slice(11)).not.toBe(networkHash(hmacBytes, KEY, '198.51.101.4'));
  });

  it('gives an address its tokens for the minute, then none until the next minute; other addresses are apart', () => {
    const { sign, advance } = signer(2);
    const three = [1, 2, 3].map(() => sign(60, '', '198.51.100.4'));
    expect(three.map((token) => token !== undefined)).toEqual([true, true, false]);
    expect(sign(60, '', '203.0.113.9')).toBeDefined();
    advance(60_000);
    expect(sign(60, '', '198.51.100.4')).toBeDefined();
  });

  it('with a limit of 0 (the API’s "off"), every page gets one; with no key, none does', () => {
    const unlimited = signer(0).sign;
    expect(Array.from({ length: 100 }, () => unlimited(1, '', '198.51.100.4')).every(Boolean)).toBe(true);
    expect(signer(60, []).sign(1, '', '198.51.100.4')).toBeUndefined();
  });

  it('never gives two pages the same id', () => {
    const { sign } = signer(0);
    const ids = new Set(Array.from({ length: 500 }, () => parsePageToken(sign(1, '', '::1') ?? '')?.claims.id));
    expect(ids.size).toBe(500);
  });
});
