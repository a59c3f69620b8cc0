import { contractCompatible, parseHostBuildInfo, type HostContract } from './contract';

const host: HostContract = { contractMajor: 1, contractVersion: '1.4.0', minRemoteContract: '1.2.0' };

describe('contractCompatible', () => {
  it.each<[string, number, string | null, boolean, RegExp]>([
    ['the same version', 1, '1.4.0', true, /within the live host's 1.2.0 – 1.4.0/],
    ['an older minor the host still accepts', 1, '1.2.5', true, /within/],
    [
      'a newer minor than the host provides',
      1,
      '1.5.0',
      false,
      /needs contract 1.5.0; the live host provides only 1.4.0/,
    ],
    ['a newer patch than the host provides', 1, '1.4.1', false, /provides only 1.4.0/],
    ['older than the host needs', 1, '1.1.9', false, /needs at least 1.2.0/],
    ['another major', 2, '2.0.0', false, /major 2\); the live host provides major 1/],
    ['a major that disagrees with its version', 1, '2.0.0', false, /provides major 1/],
    ['not recorded', 1, null, false, /publish it again/],
    ['not semver', 1, 'one', false, /not a semver version/],
  ])('%s', (_, contractMajor, sharedVersion, ok, reason) => {
    const check = contractCompatible(host, { contractMajor, sharedVersion });
    expect(check.ok).toBe(ok);
    expect(check.reason).toMatch(reason);
  });

  it('reads build-info.json, an absent minRemoteContract meaning <major>.0.0', () => {
    expect(parseHostBuildInfo({ contractMajor: 1, contractVersion: '1.0.0' })).toEqual({
      contractMajor: 1,
      contractVersion: '1.0.0',
      minRemoteContract: '1.0.0',
    });
    expect(parseHostBuildInfo({ contractMajor: 1, contractVersion: '1.3.0', minRemoteContract: '1.1.0' })).toEqual({
      contractMajor: 1,
      contractVersion: '1.3.0',
      minRemoteContract: '1.1.0',
    });
    expect(parseHostBuildInfo({ contractMajor: 1 })).toMatch(/no semver contractVersion/);
    expect(parseHostBuildInfo('x')).toMatch(/not a JSON object/);
    expect(parseHostBuildInfo({ contractMajor: 1, contractVersion: '1.0.0', minRemoteContract: 'x' })).toMatch(
      /minRemoteContract/,
    );
  });
});
