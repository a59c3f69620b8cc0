import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintPageToken, parsePageToken } from '@special-gift/shared/telemetry';
import { hmacBytes } from './page-token-signer';
import { PAGE_TOKEN_MODULE_PATH, renderPageTokenModule } from './render-njs';

describe("nginx's page-token module", () => {
  const generated = renderPageTokenModule();

  it(`${PAGE_TOKEN_MODULE_PATH} is what its sources generate (run \`npm run generate\`)`, () => {
    expect(readFileSync(join(__dirname, '..', '..', PAGE_TOKEN_MODULE_PATH), 'utf8')).toBe(generated);
  });

  // What njs 0.7.9 refuses (the real-nginx tests load it too): any export but the default, and
  // syntax newer than ES5 that esbuild keeps.
  it('is an ES5 module with a default export only', () => {
    expect(generated.match(/^export .*$/gm)).toEqual(['export default page_token_entry_default;']);
    const code = generated.replace(/^\/\/.*$/gm, '');
    expect(code).not.toMatch(/\b(const|let|class)\s|=>|`|\.\.\./);
    expect(generated).toMatch(/^import njsCrypto from 'crypto';$/m);
  });

  /** The module run as njs runs it, with Node's HMAC as njs's crypto and these random bytes and clock. */
  function handler(env: Record<string, string>) {
    const body = generated
      .replace("import njsCrypto from 'crypto';", '')
      .replace(/^export default (\w+);$/m, 'return $1;');
    // The generated module as a function of the globals njs gives it.
    const load = new Function('njsCrypto', 'crypto', 'process', 'Date', body) as (...globals: unknown[]) => {
      pageToken(r: unknown): void;
    };
    return load(
      { createHmac: (algorithm: string, key: Uint8Array) => createHmac(algorithm, key) },
      { getRandomValues: (bytes: Uint8Array) => (bytes.set(RANDOM), bytes) },
      { env },
      { now: () => NOW_SECONDS * 1000 + 999 },
    ).pageToken;
  }
  const RANDOM = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const NOW_SECONDS = 1_764_000_000;
  const KEY = 'k'.repeat(32);
  /**
   * A token request whose page names `pageBuilds`, the location's cached snapshot `sg_builds`, and
   * `fresh` the snapshot asked afresh (its status and builds), with what the handler asked of it.
   */
  const page = (
    variables: Record<string, string>,
    pageBuilds = variables.sg_builds ?? 'signup=0123456789ab',
    fresh = { status: 200, builds: 'signup=0123456789ab' },
  ) => {
    const answer: { status?: number; body?: string } = {};
    const headersOut: Record<string, string> = {};
    const asked: string[] = [];
    return {
      answer,
      headersOut,
      asked,
      request: {
        subrequest: (uri: string, _options: unknown, done: (reply: unknown) => void) => {
          asked.push(uri);
          done({ status: fresh.status, headersOut: { 'Sg-Builds': fresh.builds } });
        },
        variables: { sg_bucket: '7', sg_builds: 'signup=0123456789ab', remote_addr: '203.0.113.9', ...variables },
        headersIn: { 'Sg-Builds': pageBuilds },
        headersOut,
        return: (status: number, body?: string) => Object.assign(answer, { status, body }),
      },
    };
  };

  it("mints what shared's mintPageToken mints, with the first key", () => {
    const { answer, request } = page({ sg_page_token_environment: 'staging' });
    handler({ PAGE_TOKEN_KEY: `${KEY}, ${'o'.repeat(32)}` })(request);
    expect(answer).toEqual({
      status: 200,
      body: mintPageToken(hmacBytes, new TextEncoder().encode(KEY), 'staging', {
        bucket: 7,
        builds: 'signup=0123456789ab',
        nowSeconds: NOW_SECONDS,
        client: '203.0.113.9',
        random8: RANDOM,
      }),
    });
  });

  it.each([
    ['no key', {}, { sg_page_token_environment: 'staging' }, 'page_tokens_off'],
    ['no environment', { PAGE_TOKEN_KEY: KEY }, {}, 'page_tokens_off'],
    [
      'builds outside the grammar',
      { PAGE_TOKEN_KEY: KEY },
      { sg_page_token_environment: 'x', sg_builds: 'a"><' },
      'bad_builds',
    ],
  ])(
    'answers an empty 204 for %s, and says why',
    (_, env: Record<string, string>, variables: Record<string, string>, reason: string) => {
      const { answer, headersOut, request } = page(variables);
      handler(env)(request);
      expect(answer).toEqual({ status: 204, body: undefined });
      expect(headersOut['Sg-Page-Token-Refused']).toBe(reason);
    },
  );

  it("signs only for the builds the visitor's bucket gets now: a page that names others gets none", () => {
    for (const pageBuilds of ['signup=ba9876543210', '']) {
      const { answer, headersOut, request, asked } = page({ sg_page_token_environment: 'staging' }, pageBuilds);
      handler({ PAGE_TOKEN_KEY: KEY })(request);
      expect(answer).toEqual({ status: 204, body: undefined });
      expect(headersOut['Sg-Page-Token-Refused']).toBe('builds_not_served');
      // Asked afresh before refusing: the cached snapshot may be a second old.
      expect(asked).toEqual(['/_sg_snapshot_fresh']);
    }
  });

  it('signs a page composed since a release that the cached snapshot has not seen yet, by the fresh one', () => {
    const released = 'signup=ba9876543210';
    const { answer, request, asked } = page({ sg_page_token_environment: 'staging' }, released, {
      status: 200,
      builds: released,
    });
    handler({ PAGE_TOKEN_KEY: KEY })(request);
    expect(answer.status).toBe(200);
    expect(parsePageToken(answer.body ?? '')?.claims.builds).toBe(released);
    expect(asked).toEqual(['/_sg_snapshot_fresh']);
    // The fresh snapshot failing: none.
    const failing = page({ sg_page_token_environment: 'staging' }, released, { status: 204, builds: '' });
    handler({ PAGE_TOKEN_KEY: KEY })(failing.request);
    expect(failing.answer.status).toBe(204);
  });

  it('asks nothing more when the page names the cached snapshot', () => {
    const { answer, asked, request } = page({ sg_page_token_environment: 'staging' });
    handler({ PAGE_TOKEN_KEY: KEY })(request);
    expect([answer.status, asked]).toEqual([200, []]);
  });
});
