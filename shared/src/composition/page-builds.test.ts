import { buildEntryUrl, parsePageBuilds } from './page-builds';

describe('parsePageBuilds', () => {
  it('reads each remote and its build', () => {
    expect(parsePageBuilds('intro=0123456789ab,signup=ba9876543210')).toEqual({
      intro: '0123456789ab',
      signup: 'ba9876543210',
    });
  });

  it('is empty without a snapshot', () => {
    expect(parsePageBuilds('')).toEqual({});
    expect(parsePageBuilds(undefined)).toEqual({});
    expect(parsePageBuilds(null)).toEqual({});
  });

  it('leaves out what is not a remote name and a build id', () => {
    expect(
      parsePageBuilds('intro=0123456789AB,signup=../../x,Thank=0123456789ab,ok=0123456789ab,=0123456789ab,bad'),
    ).toEqual({ ok: '0123456789ab' });
  });
});

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
