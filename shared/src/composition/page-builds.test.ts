import { buildEntryUrl } from './page-builds';

describe('buildEntryUrl', () => {
  it("puts the build's entry under builds/ beside the remote's own entry", () => {
    expect(buildEntryUrl('http://localhost:3002/remoteEntry.js', '0123456789ab', 'http://localhost:3000/')).toBe(
      'http://localhost:3002/builds/0123456789ab/remoteEntry.js',
    );
    expect(buildEntryUrl('/remotes/signup/remoteEntry.js', '0123456789ab', 'https://gift.example/sign-up')).toBe(
      'https://gift.example/remotes/signup/builds/0123456789ab/remoteEntry.js',
    );
  });

  it("keeps the remote's own entry without a build", () => {
    expect(buildEntryUrl('http://localhost:3002/remoteEntry.js', undefined, 'http://localhost:3000/')).toBe(
      'http://localhost:3002/remoteEntry.js',
    );
  });
});
