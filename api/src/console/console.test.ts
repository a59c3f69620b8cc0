// The team console's page as the API serves it (docs/console.md): its own strict policy, no inline
// script, no framing, its script and styles built from api/operator-pages/console/. What it shows and does
// is proved in a browser by e2e/tests/console.spec.ts; the endpoints it calls by access.test.ts.
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(60_000);

describe('the team console page', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ operatorToken: 'console-test-operator-token-0123456789abcdef' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is served with its own policy: scripts and styles of this origin only, nothing inline, never framed', async () => {
    const page = await fetch(`${server.baseUrl}/v1/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"])
      expect(policy).toContain(directive);
    expect(policy).not.toMatch(/unsafe-(inline|eval)/);
    const html = await page.text();
    expect(html).toContain('<script src="console.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="console.css">');
    // Relative URLs only (it works behind the host's /api/ too), and no inline script.
    expect(html).not.toMatch(/<script>|src="\/|href="\//);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('serves its script and styles, built from api/operator-pages/console/, under the same policy', async () => {
    const script = await fetch(`${server.baseUrl}/v1/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const code = await script.text();
    // The page's own words and the canary verdict's box, bundled: not the report page's script.
    expect(code).toContain('special-gift.console-token');
    expect(code).toContain('What would change it:');
    expect(code).not.toMatch(/\beval\(|new Function\(/);
    const css = await fetch(`${server.baseUrl}/v1/console.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('dialog');
  });

  it('answers other methods with 405 and the documented error', async () => {
    for (const path of ['/v1/console', '/v1/console.js', '/v1/console.css']) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(`${path}: ${response.status}`).toBe(`${path}: 405`);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('answers the icon browsers ask its origin for with no content, not a logged 404', async () => {
    const response = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
  });
});
