import {
  buildFiles,
  buildsInPage,
  fileRoute,
  hostFilesInPage,
  keptBy,
  publishedBuildBase,
  remoteBuilds,
} from './offline-set';

const PAGE = `<!doctype html><html lang="fr" data-sg-builds="signup=0123456789ab" data-sg-integrity="x">
<head><meta name="sg-collector" content="/collector.1a2b3c4d.js"><link rel="icon" href="/favicon.ico"></head>
<body><link rel="stylesheet" href="/_screen-files/signup/builds/0123456789ab/screen.cafe0123.css">
<script>(function(d,w){var p=d.createElement('script');p.src='/page-loader.deadbeef.js';p.dataset.app='/main.0a1b2c3d.js'})(document,window)</script></body></html>`;

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

  it("lists the host's files from the minified page.shtml the build writes (unquoted, single- and double-quoted attributes)", () => {
    // The form html-webpack-plugin's minifier writes: quotes dropped where the value allows it.
    const built =
      '<!doctype html><html lang="<!--# echo var="sg_lang" -->" data-sg-builds="<!--# echo var="sg_builds" -->"><head>' +
      '<meta charset=utf-8><link rel=icon href=/favicon.svg type=image/svg+xml>' +
      '<link rel=preload href=/config.json as=fetch crossorigin=anonymous>' +
      '<script defer src="/page-loader.d10ac8c2.js?v=1" data-app="/main.f7c3a761.js"></script>' +
      '<link href=/main.3b3a2229.css rel=stylesheet>' +
      "<link rel='stylesheet' href='/_screen-files/intro/screen.0badf00d.css'>" +
      '<meta name="sg-collector" content="/collector.f291de4e.js"></head><body></body></html>';
    expect(hostFilesInPage(built).sort()).toEqual(
      [
        '/_screen-files/intro/screen.0badf00d.css',
        '/collector.f291de4e.js',
        '/main.3b3a2229.css',
        '/main.f7c3a761.js',
        '/page-loader.d10ac8c2.js',
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

describe("which of the worker's rules answers a file", () => {
  const HOST = 'https://gift.example';
  const route = (url: string) => fileRoute(new URL(url, HOST), HOST);

  it.each([
    ['/config.json', 'host-revalidated'],
    ['/assets/i18n/fr.json', 'host-revalidated'],
    ['/main.0a1b2c3d.js', 'host-hashed'],
    ['/main.962bdac1.css', 'host-hashed'],
    ['/_screen-files/signup/builds/0123456789ab/screen.cafe0123.css', 'host-hashed'],
    // A remote on its own origin.
    ['https://signup.example/builds/0123456789ab/remoteEntry.js', 'published-build'],
    ['https://signup.example/builds/0123456789ab/123.abcdef12.js', 'published-build'],
    ['https://signup.example/123.abcdef12.js', 'image-hashed'],
    ['https://signup.example/remoteEntry.js', 'image-entry'],
    ['https://signup.example/assets/i18n/ar.json', 'image-entry'],
    // The same remote served under a folder of the host's origin: the same rules, not the host's.
    ['/remotes/signup/builds/0123456789ab/remoteEntry.js', 'published-build'],
    ['/remotes/signup/builds/0123456789ab/123.abcdef12.js', 'published-build'],
    ['/remotes/signup/123.abcdef12.js', 'image-hashed'],
    ['/remotes/signup/remoteEntry.js', 'image-entry'],
    ['/remotes/signup/assets/i18n/ar.json', 'image-entry'],
  ])('%s: %s', (url, expected) => {
    expect(route(url)).toBe(expected);
  });

  it('never the API, nor files the set does not keep', () => {
    expect(route('/api/v1/sign-ups')).toBeUndefined();
    expect(route('/api/v1/assets/i18n/fr.json')).toBeUndefined();
    expect(route('/build-info.json')).toBeUndefined();
    expect(route('https://signup.example/build-info.json')).toBeUndefined();
  });
});
