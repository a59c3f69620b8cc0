// The network a token's id carries is now shared code (shared's `networkOf`, which nginx's njs
// signer ports too). It must print what the API printed before, from express-rate-limit's
// `ipKeyGenerator`: otherwise a network's hash changes at the upgrade and its cap counts it twice.
import { isIPv4 } from 'node:net';
import { ipKeyGenerator } from 'express-rate-limit';
import { networkOf, type TelemetryBatch } from '@special-gift/shared/telemetry';
import { checkPageToken, issuePageToken, pageTokenKeys } from './page-token';

/** The API's network before it moved to shared code. */
function networkBefore(address: string): string {
  const plain = ipKeyGenerator(address, 56);
  return isIPv4(plain) ? `${plain.split('.').slice(0, 3).join('.')}.0/24` : plain;
}

test('shared networkOf prints what the API printed, for every address form a proxy may give', () => {
  const addresses = [
    '203.0.113.9',
    '10.0.0.1',
    '255.255.255.255',
    '0.0.0.0',
    '::ffff:203.0.113.9',
    '2001:db8:abcd:12ff::1',
    '2001:0db8:abcd:1200:0000:0000:0000:0001',
    '2001:db8::1',
    '2001:db8:0:0:1::1',
    '::1',
    '::',
    'fe80::1',
    '1:2:3:4:5:6:7:8',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db8:0:ff00::',
    '0:0:1::',
  ];
  for (const address of addresses) expect([address, networkOf(address)]).toEqual([address, networkBefore(address)]);
});

test('during a rotation a token signed under either key checks, and its network under the key that signed it', () => {
  const [newKey, oldKey] = pageTokenKeys(`${'n'.repeat(32)},${'o'.repeat(32)}`, undefined);
  if (!newKey || !oldKey) throw new Error('two keys expected');
  const nowSeconds = 1_790_000_000;
  const batch = (token: string) =>
    ({ token, builds: { signup: '0123456789ab' } }) as Pick<TelemetryBatch, 'token' | 'builds'> as TelemetryBatch;
  for (const key of [newKey, oldKey]) {
    const token = issuePageToken(key, 'production', {
      bucket: 3,
      builds: 'signup=0123456789ab',
      now: nowSeconds,
      client: '198.51.100.7',
    });
    expect(checkPageToken([newKey, oldKey], 'production', batch(token), nowSeconds, '198.51.100.200')).toMatchObject({
      provenance: 'signed',
    });
    expect(checkPageToken([newKey, oldKey], 'production', batch(token), nowSeconds, '198.51.101.7')).toEqual({
      provenance: 'mismatched',
    });
  }
  const stranger = pageTokenKeys('s'.repeat(32), undefined)[0]!;
  const forged = issuePageToken(stranger, 'production', { bucket: 3, builds: '', now: nowSeconds, client: undefined });
  expect(checkPageToken([newKey, oldKey], 'production', batch(forged), nowSeconds, undefined)).toEqual({
    provenance: 'forged',
  });
});
