/** @jest-environment node */
import { createHash, createHmac } from 'node:crypto';
import { formatPageIntegrity, parsePageIntegrity } from '../composition/page-integrity';
import {
  canonicalJson,
  currentPayload,
  currentProblem,
  parseKeyList,
  selectForBucket,
  serializeState,
  stateProblem,
  type ReleaseCurrent,
  type ReleaseState,
} from '.';
import vectors from './vectors.json';

// The vectors are shared with the other implementations (the njs verifier, the API's publisher):
// each must read and print these bytes alike.
const state = JSON.parse(vectors.state) as ReleaseState;
const current = vectors.current as ReleaseCurrent;
const sign = (payload: string, secret = vectors.key.secret) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

describe('the vectors', () => {
  test('the state prints back to the same bytes, whose SHA-256 the current object names', () => {
    expect(serializeState(state)).toBe(vectors.state);
    expect(createHash('sha256').update(vectors.state).digest('hex')).toBe(current.sha256);
    expect(vectors.objects.state).toBe(`_state/production/${current.state}`);
  });

  test("the current object's signature is the HMAC of its payload under its key", () => {
    const { signature, ...unsigned } = current;
    expect(currentProblem(current)).toBeNull();
    expect(sign(currentPayload(unsigned))).toBe(signature);
  });

  test('each bucket gets the canary below its share, the live build above, with their hashes', () => {
    for (const { bucket, builds, integrity } of vectors.selections)
      expect(selectForBucket(state, bucket)).toEqual({ builds, integrity });
    // The integrity pairs are the page's own format, read back whole.
    const [canaryPage] = vectors.selections;
    expect(formatPageIntegrity(groupByRemote(parsePageIntegrity(canaryPage?.integrity)))).toBe(canaryPage?.integrity);
  });
});

describe('what a composer refuses', () => {
  const changed = (change: (copy: Record<string, unknown>) => void) => {
    const copy = JSON.parse(vectors.state) as Record<string, unknown>;
    change(copy);
    return copy;
  };
  const signup = (copy: Record<string, unknown>) => (copy.remotes as Record<string, Record<string, unknown>>).signup!;

  test.each([
    ['another format', (copy: Record<string, unknown>) => (copy.format = 'sg-release-state/2'), 'format'],
    ['a build id that is not one', (copy: Record<string, unknown>) => (signup(copy).live = '../../etc'), 'live build'],
    ['a share above 100', (copy: Record<string, unknown>) => (signup(copy).canaryPercent = 101), 'canaryPercent'],
    [
      'a share without a canary',
      (copy: Record<string, unknown>) => {
        signup(copy).canary = null;
      },
      'a share without a canary',
    ],
    [
      'a hash that is not SRI',
      (copy: Record<string, unknown>) => {
        const integrity = signup(copy).integrity as Record<string, Record<string, string>>;
        integrity['0123456789ab']!['remoteEntry.js'] = 'sha256-x';
      },
      'integrity of 0123456789ab/remoteEntry.js',
    ],
    [
      'a file no page loads',
      (copy: Record<string, unknown>) => {
        const integrity = signup(copy).integrity as Record<string, Record<string, string>>;
        integrity['0123456789ab']!['../secret.js'] = integrity['0123456789ab']!['remoteEntry.js']!;
      },
      'integrity of 0123456789ab/../secret.js',
    ],
    [
      'hashes of a build it does not serve',
      (copy: Record<string, unknown>) => {
        const integrity = signup(copy).integrity as Record<string, Record<string, string>>;
        integrity.ffffffffffff = {};
      },
      'integrity is not of its live and canary builds',
    ],
    [
      'a remote name that is not one',
      (copy: Record<string, unknown>) => ((copy.remotes as Record<string, unknown>).Intro = {}),
      'remote name',
    ],
  ])('%s', (_, change, reason) => {
    expect(stateProblem(changed(change))).toContain(reason);
    expect(() => serializeState(changed(change) as unknown as ReleaseState)).toThrow(reason);
  });

  test.each([
    [
      'a state name that does not end in its hash',
      { state: 'states/0000000042-0000000000000000.json' },
      'sha256 differ',
    ],
    ['a state name of another serial', { serial: 41 }, 'serial differ'],
    ['a path out of the folder', { state: '../states/0000000042-x.json' }, 'state name malformed'],
    ['another algorithm', { alg: 'none' }, 'alg'],
    ['a key id that is not one', { keyId: 'k 1' }, 'keyId'],
  ])('current: %s', (_, change, reason) => {
    expect(currentProblem({ ...current, ...change })).toContain(reason);
  });

  test('a changed field breaks the signature (each is under it)', () => {
    const { signature, ...unsigned } = current;
    for (const [field, value] of Object.entries({ serial: 43, environment: 'staging', keyId: 'k2', publishedAt: 'x' }))
      expect(sign(currentPayload({ ...unsigned, [field]: value }))).not.toBe(signature);
  });
});

describe('canonicalJson', () => {
  test('sorts keys at every depth and leaves out nothing else', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: null, e: 'x' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[2,{"e":"x","f":null}]},"b":1}',
    );
  });
});

describe('parseKeyList', () => {
  const secret = 's'.repeat(32);
  test('the first signs, all verify, in their order', () => {
    expect(parseKeyList(`k2:${secret}, k1:${secret}x`)).toEqual([
      { id: 'k2', secret },
      { id: 'k1', secret: `${secret}x` },
    ]);
  });
  test.each([
    ['', 'no key'],
    [`:${secret}`, 'is not "<id>:<secret>"'],
    ['k1:short', 'fewer than 32 characters'],
    [`k1:${secret},k1:${secret}`, 'listed twice'],
    [`key-one:${secret}`, 'is not "<id>:<secret>"'],
  ])('refuses %p', (value, message) => {
    expect(() => parseKeyList(value)).toThrow(message);
  });
});

function groupByRemote(pairs: Record<string, string>): Record<string, Record<string, string>> {
  const grouped: Record<string, Record<string, string>> = {};
  for (const [key, sri] of Object.entries(pairs)) {
    const at = key.indexOf('/');
    (grouped[key.slice(0, at)] ??= {})[key.slice(at + 1)] = sri;
  }
  return grouped;
}
