import { CONTRACT_VERSION } from '@special-gift/shared/version';
import { buildInfo } from './build-info-plugin';

describe("the host's build-info.json", () => {
  it('names the contract major the host speaks, and the shared package version of the same major', () => {
    const info = buildInfo();
    expect(info.contractMajor).toBe(CONTRACT_VERSION);
    expect(info.contractVersion).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+/);
    expect(Number(info.contractVersion.split('.')[0])).toBe(CONTRACT_VERSION);
  });
});
