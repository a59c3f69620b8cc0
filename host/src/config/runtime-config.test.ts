/**
 * @jest-environment node
 */
// Node's real Response is used to feed readRuntimeConfig (jsdom has none).
import { LOCAL_PORTS } from '../../../tooling/serve/local-topology';
import { localRuntimeConfig } from '../../../tooling/serve/runtime-config';
import { ConfigError, parseRuntimeConfig, readRuntimeConfig, REMOTE_NAMES, remoteTextsBase } from './runtime-config';

const validInput = {
  apiBase: '/api/v1/',
  cardScanBase: 'https://www.special-gift.example/scan//',
  siteBase: 'https://www.special-gift.example/',
  defaultLanguage: 'fr',
  remotes: {
    intro: 'https://intro.special-gift.example/remoteEntry.js',
    signup: '/remotes/signup/remoteEntry.js',
    thankyou: 'http://localhost:3003/remoteEntry.js',
  },
  swipeBackEnabled: false,
};

/** The problems a ConfigError carries, failing the test when something else is thrown. */
function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

async function rejectedProblems(promise: Promise<unknown>): Promise<readonly string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseRuntimeConfig', () => {
  it('accepts a valid config and trims trailing slashes from the bases', () => {
    expect(parseRuntimeConfig(validInput)).toEqual({
      apiBase: '/api/v1',
      cardScanBase: 'https://www.special-gift.example/scan',
      siteBase: 'https://www.special-gift.example',
      defaultLanguage: 'fr',
      remotes: validInput.remotes,
      swipeBackEnabled: false,
    });
  });

  // Its one writer is the images' start-up script (run here as `npm run up` runs it).
  it('accepts the config.json the start-up script writes, with an entry for every remote', () => {
    const config = parseRuntimeConfig(localRuntimeConfig(LOCAL_PORTS));
    expect(Object.keys(config.remotes)).toEqual([...REMOTE_NAMES]);
    expect(config.remotes.signup).toBe(`http://localhost:${LOCAL_PORTS.signup}/remoteEntry.js`);
  });

  it('defaults the language to English and leaves swipeBackEnabled out when not given', () => {
    const { defaultLanguage: _language, swipeBackEnabled: _swipe, ...minimal } = validInput;
    const config = parseRuntimeConfig(minimal);
    expect(config.defaultLanguage).toBe('en');
    expect(config).not.toHaveProperty('swipeBackEnabled');
  });

  it('collects every problem before failing', () => {
    const problems = problemsOf(() =>
      parseRuntimeConfig({
        ...validInput,
        apiBase: 'not a url',
        defaultLanguage: 'de',
        remotes: { intro: validInput.remotes.intro, thankyou: 'https://thankyou.example/mf-manifest.json' },
        swipeBackEnabled: 'yes',
        requireIntegrity: 'on',
      }),
    );
    expect(problems).toEqual([
      '"apiBase" must be an http(s) URL or a path starting with "/"',
      '"defaultLanguage" must be one of the supported languages',
      '"remotes.signup" must be the URL of the remote\'s remoteEntry.js',
      '"remotes.thankyou" must be the URL of the remote\'s remoteEntry.js',
      '"swipeBackEnabled" must be true or false when given',
      '"requireIntegrity" must be true or false when given',
    ]);
  });

  it('keeps requireIntegrity only when it is on (off is the default)', () => {
    expect(parseRuntimeConfig({ ...validInput, requireIntegrity: true }).requireIntegrity).toBe(true);
    expect(parseRuntimeConfig({ ...validInput, requireIntegrity: false })).not.toHaveProperty('requireIntegrity');
    expect(parseRuntimeConfig(validInput)).not.toHaveProperty('requireIntegrity');
  });

  it('reports missing bases and a missing remotes object', () => {
    const problems = problemsOf(() => parseRuntimeConfig({}));
    expect(problems).toEqual([
      '"apiBase" must be an http(s) URL or a path starting with "/"',
      '"cardScanBase" must be an http(s) URL or a path starting with "/"',
      '"siteBase" must be an http(s) URL or a path starting with "/"',
      '"remotes" must be an object with the remoteEntry.js URL of each remote',
    ]);
  });

  it.each([
    ['a protocol-relative URL', '//cdn.example/api'],
    ['another scheme', 'ftp://files.example/api'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'api/v1'],
    ['a number', 42],
  ])('rejects %s as a base', (_, apiBase) => {
    expect(problemsOf(() => parseRuntimeConfig({ ...validInput, apiBase }))).toEqual([
      '"apiBase" must be an http(s) URL or a path starting with "/"',
    ]);
  });

  it.each([null, [], 'config', 42, true])('rejects %p, which is not a JSON object', (raw) => {
    expect(problemsOf(() => parseRuntimeConfig(raw))).toEqual(['config.json must be a JSON object']);
  });

  it('throws a ConfigError whose message lists the problems', () => {
    expect(() => parseRuntimeConfig({ ...validInput, siteBase: 'nope' })).toThrow(
      new ConfigError(['"siteBase" must be an http(s) URL or a path starting with "/"']),
    );
    expect(() => parseRuntimeConfig(null)).toThrow('Invalid runtime config: config.json must be a JSON object');
  });
});

describe('readRuntimeConfig', () => {
  const jsonResponse = (body: string, status = 200) =>
    new Response(body, { status, headers: { 'Content-Type': 'application/json' } });

  it('parses a successful answer', async () => {
    await expect(readRuntimeConfig(Promise.resolve(jsonResponse(JSON.stringify(validInput))))).resolves.toMatchObject({
      apiBase: '/api/v1',
      defaultLanguage: 'fr',
    });
  });

  it('turns a rejected fetch into a ConfigError naming the URL', async () => {
    const problems = await rejectedProblems(readRuntimeConfig(Promise.reject(new TypeError('Failed to fetch'))));
    expect(problems).toEqual(['/config.json could not be fetched (TypeError: Failed to fetch)']);
  });

  it('turns an error status into a ConfigError', async () => {
    const problems = await rejectedProblems(
      readRuntimeConfig(Promise.resolve(jsonResponse('{}', 404)), '/env/config.json'),
    );
    expect(problems).toEqual(['/env/config.json answered 404']);
  });

  it('turns invalid JSON into a ConfigError', async () => {
    const problems = await rejectedProblems(
      readRuntimeConfig(Promise.resolve(jsonResponse('<!doctype html><p>Not here</p>'))),
    );
    expect(problems).toEqual(['/config.json is not valid JSON']);
  });

  it('passes on the validation problems of a well-formed but invalid config', async () => {
    const problems = await rejectedProblems(readRuntimeConfig(Promise.resolve(jsonResponse('[]'))));
    expect(problems).toEqual(['config.json must be a JSON object']);
  });
});

describe('remoteTextsBase', () => {
  it.each([
    ['http://localhost:3002/remoteEntry.js', 'http://localhost:3000/sign-up', 'http://localhost:3002/'],
    [
      'https://cdn.example/signup/v2/remoteEntry.js?attempt=1',
      'https://gift.example/',
      'https://cdn.example/signup/v2/',
    ],
    ['/remotes/intro/remoteEntry.js', 'https://gift.example/sign-up', 'https://gift.example/remotes/intro/'],
  ])('%s (page %s): texts under %s', (entry, page, base) => {
    expect(remoteTextsBase(entry, page)).toBe(base);
  });
});
