import { hasValidSignature, hmac, sameSecret, sign } from './signing';

describe('signing', () => {
  it('signs as HMAC-SHA256 in base64url (RFC 4231, test case 2)', () => {
    expect(hmac('Jefe', 'what do ya want for nothing?').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(sign('Jefe', 'what do ya want for nothing?')).toBe(
      Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString('base64url'),
    );
  });

  it('takes back only the signature of the same payload under the same key', () => {
    const signature = sign('key', 'remote.0123456789ab');
    expect(hasValidSignature('key', 'remote.0123456789ab', signature)).toBe(true);
    expect(hasValidSignature('key', 'remote.0123456789ac', signature)).toBe(false);
    expect(hasValidSignature('other key', 'remote.0123456789ab', signature)).toBe(false);
    expect(hasValidSignature('key', 'remote.0123456789ab', signature.slice(1))).toBe(false);
    expect(hasValidSignature('key', 'remote.0123456789ab', '')).toBe(false);
  });

  it('compares secrets of any lengths', () => {
    expect(sameSecret('s3cret', 's3cret')).toBe(true);
    expect(sameSecret('s3cret', 's3cre')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('', 'x')).toBe(false);
  });
});
