import { CONTRACT_VERSION } from '@special-gift/shared/version';
import { buildInfo } from './build-info-plugin';

describe("the host's build-info.json", () => {
  it('names the contract major the host speaks, and the shared package version of the same major', () => {
    const info = buildInfo();
    expect(info.contractMajor).toBe(CONTRACT_VERSION);
    expect(info.contractVersion).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+/);
    expect(Number(info.contractVersion.split('.')[0])).toBe(CONTRACT_VERSION);
  });

  it('accepts remotes of any version of its major unless the host raises minRemoteContract', () => {
    expect(buildInfo().minRemoteContract).toBe(`${CONTRACT_VERSION}.0.0`);
    expect(buildInfo({ minRemoteContract: buildInfo().contractVersion }).minRemoteContract).toBe(
      buildInfo().contractVersion,
    );
  });

  it('refuses a minimum of another major, not x.y.z, or above what the host itself ships', () => {
    expect(() => buildInfo({ minRemoteContract: `${CONTRACT_VERSION + 1}.0.0` })).toThrow(
      `minRemoteContract must be x.y.z of the contract major ${CONTRACT_VERSION}, not "${CONTRACT_VERSION + 1}.0.0".`,
    );
    expect(() => buildInfo({ minRemoteContract: `${CONTRACT_VERSION}.0` })).toThrow(/must be x\.y\.z/);
    const [major, minor] = buildInfo().contractVersion.split('.');
    expect(() => buildInfo({ minRemoteContract: `${major}.${Number(minor) + 1}.0` })).toThrow(
      /is above the host's own contract/,
    );
  });
});
