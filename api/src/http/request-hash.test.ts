import { canonicalJson, requestHash } from './request-hash';

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('leaves out undefined members like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('escapes strings as JSON', () => {
    expect(canonicalJson({ 'k"': 'a\nb' })).toBe('{"k\\"":"a\\nb"}');
  });
});

describe('requestHash', () => {
  it('is the same for the same value in any key order', () => {
    expect(requestHash({ a: 1, b: [1, 2] })).toBe(requestHash({ b: [1, 2], a: 1 }));
  });

  it('differs when a value, an array order or a type differs', () => {
    const base = requestHash({ a: 1, b: [1, 2] });
    expect(requestHash({ a: 2, b: [1, 2] })).not.toBe(base);
    expect(requestHash({ a: 1, b: [2, 1] })).not.toBe(base);
    expect(requestHash({ a: '1', b: [1, 2] })).not.toBe(base);
  });

  it('is hex SHA-256', () => {
    expect(requestHash({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
