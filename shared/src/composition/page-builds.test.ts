import { buildEntryUrl, publishedBuildFolder } from './page-builds';

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

describe('publishedBuildFolder', () => {
  it("reads back the folder, remote's base and build that buildEntryUrl wrote", () => {
    const entry = buildEntryUrl('/remotes/signup/remoteEntry.js', '0123456789ab', 'https://gift.example/');
    expect(publishedBuildFolder(entry)).toEqual({
      folder: 'https://gift.example/remotes/signup/builds/0123456789ab/',
      remoteBase: 'https://gift.example/remotes/signup/',
      build: '0123456789ab',
    });
    expect(publishedBuildFolder(`${entry.replace('remoteEntry.js', '')}assets/i18n/fr.json`)?.build).toBe(
      '0123456789ab',
    );
  });

  it('is null for the files of no published build', () => {
    expect(publishedBuildFolder('https://gift.example/remotes/signup/remoteEntry.js')).toBeNull();
    expect(publishedBuildFolder('https://gift.example/remotes/signup/builds/0123456789AB/remoteEntry.js')).toBeNull();
    expect(publishedBuildFolder('https://gift.example/remotes/signup/builds/0123456789ab')).toBeNull();
  });
});
