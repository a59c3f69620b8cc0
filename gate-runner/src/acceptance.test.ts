import { checkAcceptance, type AcceptanceOptions } from './acceptance';
import { gateJob, refusedUrl, startServer, type LocalServer } from './test-support';

const BUILD = '0123456789ab';
const job = (route: string) => gateJob({ route, previewCookie: `signup.${BUILD}.1.operator.mac` });

/**
 * A stand-in host: it composes the candidate only for the preview cookie of the claim in the last
 * bucket, as the real composer would, and marks the page interactive as the shell does.
 */
function page(cookies: string, body: string, script = ''): string {
  const previewed = cookies.includes(`sg_preview=signup.${BUILD}.1.operator.mac`) && cookies.includes('sg_bucket=99');
  return `<!doctype html><html lang="en" data-sg-builds="intro=ba9876543210${previewed ? `,signup=${BUILD}` : ''}">
<head><meta charset="utf-8"><title>Sign up</title><link rel="icon" href="data:,"></head>
<body><main>${body}</main><script>document.documentElement.dataset.interactive = 'true';</script><script>${script}</script></body></html>`;
}
const PAGES: Record<string, (cookies: string) => string> = {
  '/sign-up': (cookies) => page(cookies, '<h1>Sign up</h1><p>Your special gift card.</p>'),
  // The shell is up, then the screen's code throws.
  '/throws': (cookies) => page(cookies, '<h1>Sign up</h1>', "throw new Error('The screen cannot mount');"),
  // An image without a text alternative, one the page's CSP blocks, and a script that is not there.
  '/broken': (cookies) =>
    page(
      cookies,
      '<h1>Sign up</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img alt="" src="https://cdn.example.invalid/pixel.gif"><script src="/missing.js"></script>',
    ),
};

// Real Chromium on a shared machine: a launch and a page take seconds when the cores are busy.
jest.setTimeout(30_000);

let host: LocalServer;
let options: AcceptanceOptions;
beforeAll(async () => {
  host = await startServer((req, res) => {
    const render = PAGES[req.url ?? ''];
    res
      .writeHead(render ? 200 : 404, { 'Content-Type': 'text/html', 'Content-Security-Policy': "img-src 'self' data:" })
      .end(render?.(req.headers.cookie ?? ''));
  });
  options = {
    hostUrl: host.url,
    chromiumPath: '/usr/bin/chromium',
    settleMs: 100,
    readyTimeoutMs: 5_000,
    navigationTimeoutMs: 5_000,
  };
});
afterAll(() => host.close());

describe('the acceptance gate, in Chromium', () => {
  it('passes a candidate that the host composes, that becomes interactive, error-free and axe clean, twice', async () => {
    const verdict = await checkAcceptance(job('/sign-up'), options);
    expect(verdict).toMatchObject({ outcome: 'passed' });
    const { runs } = verdict.detail as { runs: Array<{ builds: Record<string, string>; axe: string[] }> };
    expect(runs.map((run) => [run.builds.signup, run.axe])).toEqual([
      [BUILD, []],
      [BUILD, []],
    ]);
  });

  it('fails a screen that throws, naming the page error', async () => {
    const verdict = await checkAcceptance(job('/throws'), options);
    expect(verdict.outcome).toBe('failed');
    expect(verdict.reason).toMatch(/^Run 1: page error: .*The screen cannot mount/);
  });

  it('fails a candidate with an axe violation, a CSP violation and an error response, naming each', async () => {
    const verdict = await checkAcceptance(job('/broken'), options);
    expect(verdict.outcome).toBe('failed');
    expect(verdict.reason).toMatch(/axe violations: image-alt \(img:nth-child\(2\)\)/);
    expect(verdict.reason).toMatch(/CSP violation: img-src blocked https:\/\/cdn\.example\.invalid\/pixel\.gif/);
    expect(verdict.reason).toMatch(/error response: GET http:\/\/127\.0\.0\.1:\d+\/missing\.js \(404\)/);
  });

  it('is inconclusive, not failed, on a page composed without the candidate: its preview did not apply', async () => {
    // Another build's preview: the host composes the remote's own build instead, even of a broken page.
    const verdict = await checkAcceptance(
      { ...job('/broken'), previewCookie: 'signup.ba9876543210.1.operator.mac' },
      options,
    );
    expect(verdict.outcome).toBe('inconclusive');
    expect(verdict.reason).toMatch(
      /^Run 1 could not be made: the host composed http:\/\/127\.0\.0\.1:\d+\/broken with signup=\(its origin’s own build\), not the candidate 0123456789ab: its preview did not apply\.$/,
    );
  });

  it('is inconclusive when the host refuses connections, or there is no browser: nothing was checked', async () => {
    const refused = await checkAcceptance(job('/sign-up'), { ...options, hostUrl: await refusedUrl() });
    expect(refused.outcome).toBe('inconclusive');
    expect(refused.reason).toMatch(/^The host cannot be reached: http:\/\/127\.0\.0\.1:\d+\/sign-up: .*ECONNREFUSED/);
    const noBrowser = await checkAcceptance(job('/sign-up'), { ...options, chromiumPath: '/nonexistent/chromium' });
    expect(noBrowser).toMatchObject({
      outcome: 'inconclusive',
      reason: expect.stringMatching(/^Chromium cannot start \(\/nonexistent\/chromium\)/),
    });
  });
});
