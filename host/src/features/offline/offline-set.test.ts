import { buildFiles, buildsInPage, hostFilesInPage, keptBy, publishedBuildBase, remoteBuilds } from './offline-set';

const PAGE = `<!doctype html><html lang="fr" data-sg-builds="signup=0123456789ab" data-sg-integrity="x">
<head><meta name="sg-collector" content="/collector.1a2b3c4d.js"><link rel="preload" href="/main.0a1b2c3d.js" as="script">
<script defer nonce="n" src="/page-loader.deadbeef.js"></script><link rel="icon" href="/favicon.ico"></head>
<body><link rel="stylesheet" href="/_screen-files/signup/builds/0123456789ab/screen.cafe0123.css"></body></html>`;

const ENTRIES = {
  intro: 'https://intro.example/remoteEntry.js',
  signup: 'https://signup.example/remoteEntry.js',
  thankyou: 'https://thankyou.example/remoteEntry.js',
};

describe('the offline set', () => {
  it('reads the builds a composed page names', () => {
    expect(buildsInPage(PAGE)).toEqual({ signup: '0123456789ab' });
    expect(buildsInPage('<html data-sg-builds="">')).toEqual({});
  });

  it("lists the host's hashed files the page loads, not its other files", () => {
    expect(hostFilesInPage(PAGE).sort()).toEqual(
      [
        '/_screen-files/signup/builds/0123456789ab/screen.cafe0123.css',
        '/collector.1a2b3c4d.js',
        '/main.0a1b2c3d.js',
        '/page-loader.deadbeef.js',
      ].sort(),
    );
  });

  it("takes each remote's code from the build the page names, else from its image's own build", () => {
    expect(remoteBuilds(ENTRIES, { signup: '0123456789ab' }, 'https://app.example/')).toEqual([
      { remote: 'intro', base: 'https://intro.example/', published: false },
      { remote: 'signup', base: 'https://signup.example/builds/0123456789ab/', published: true },
      { remote: 'thankyou', base: 'https://thankyou.example/', published: false },
    ]);
    expect(() => remoteBuilds({ intro: ENTRIES.intro }, {}, 'https://app.example/')).toThrow(/signup/);
  });

  it('tells a published build folder from an image build file', () => {
    expect(publishedBuildBase('https://signup.example/builds/0123456789ab/main.12345678.js')).toBe(
      'https://signup.example/builds/0123456789ab/',
    );
    expect(publishedBuildBase('https://signup.example/main.12345678.js')).toBeUndefined();
  });

  it('keeps every file of a build: entry, manifest, code and stylesheets of its manifest, texts', () => {
    const manifest = {
      metaData: { remoteEntry: { name: 'remoteEntry.js' } },
      exposes: [
        {
          assets: {
            js: { sync: ['a.11111111.js'], async: ['scanner.22222222.js'] },
            css: { sync: ['a.33333333.css'] },
          },
        },
      ],
      shared: [{ assets: { js: { sync: ['a.11111111.js'] } } }],
    };
    expect(buildFiles(manifest)).toEqual([
      'remoteEntry.js',
      'mf-manifest.json',
      'a.11111111.js',
      'scanner.22222222.js',
      'a.33333333.css',
      'assets/i18n/en.json',
      'assets/i18n/fr.json',
      'assets/i18n/ar.json',
    ]);
  });

  it('keeps the current set and the one before it, nothing older', () => {
    const set = (base: string) => ({ at: '', builds: {}, buildBases: [base], urls: [`${base}x`], bytes: 1 });
    const kept = keptBy({ ...set('c/'), previous: set('b/') });
    expect([...kept.buildBases]).toEqual(['c/', 'b/']);
    expect([...kept.urls]).toEqual(['c/x', 'b/x']);
  });
});
