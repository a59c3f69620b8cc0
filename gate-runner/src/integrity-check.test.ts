import { sriOf } from '../../release-cli/src/sri';
import { checkIntegrity } from './integrity-check';
import { gateJob, refusedUrl, startServer, type LocalServer } from './test-support';

const BUILD = '0123456789ab';
/** The build as published: what the API recorded the integrity of. */
const PUBLISHED: Record<string, string> = {
  'remoteEntry.js': 'var signup = {};\n',
  '123.ab12cd34.js': 'console.log("chunk");\n',
  'assets/i18n/fr.json': '{"title":"Inscription"}\n',
};
const job = (integrity: Record<string, string> = recorded()) =>
  gateJob({ gate: 'integrity', buildId: BUILD, integrity });
const recorded = () => Object.fromEntries(Object.entries(PUBLISHED).map(([path, content]) => [path, sriOf(content)]));

/** What the remote's origin serves under builds/<id>/, and the host's config.json. */
let served: Record<string, string>;
let config: unknown;
let host: LocalServer;

beforeAll(async () => {
  host = await startServer((req, res) => {
    const path = req.url ?? '';
    const body = path === '/config.json' ? JSON.stringify(config) : served[path];
    res.writeHead(body === undefined ? 404 : 200).end(body);
  });
});
afterAll(() => host.close());
beforeEach(() => {
  // The remote served under the host's origin, its entry root-relative, as the host resolves it.
  config = {
    apiBase: '/api/v1',
    remotes: { intro: '/remotes/intro/remoteEntry.js', signup: '/remotes/signup/remoteEntry.js' },
  };
  served = Object.fromEntries(
    Object.entries(PUBLISHED).map(([path, content]) => [`/remotes/signup/builds/${BUILD}/${path}`, content]),
  );
});

describe('the integrity gate', () => {
  it('passes when every recorded file is served where browsers load it, byte for byte', async () => {
    const verdict = await checkIntegrity(job(), { hostUrl: host.url });
    expect(verdict).toMatchObject({
      outcome: 'passed',
      detail: {
        folder: `${host.url}/remotes/signup/builds/${BUILD}/`,
        files: 3,
        bytes: Buffer.byteLength(Object.values(PUBLISHED).join('')),
        mismatched: [],
        missing: [],
      },
    });
  });

  it("follows an absolute entry URL to the remote's own origin", async () => {
    config = { remotes: { signup: `${host.url}/remotes/signup/remoteEntry.js` } };
    // A second host whose config.json sends browsers to the first server for the remote's files.
    const remoteOrigin = await startServer((req, res) => {
      const path = req.url ?? '';
      res.writeHead(path === '/config.json' ? 200 : 404).end(JSON.stringify(config));
    });
    try {
      await expect(checkIntegrity(job(), { hostUrl: remoteOrigin.url })).resolves.toMatchObject({
        outcome: 'passed',
        detail: { folder: `${host.url}/remotes/signup/builds/${BUILD}/` },
      });
    } finally {
      await remoteOrigin.close();
    }
  });

  it('fails naming a file whose bytes changed, and a file that is missing', async () => {
    served[`/remotes/signup/builds/${BUILD}/123.ab12cd34.js`] = 'console.log("tampered");\n';
    delete served[`/remotes/signup/builds/${BUILD}/assets/i18n/fr.json`];
    const verdict = await checkIntegrity(job(), { hostUrl: host.url });
    expect(verdict.outcome).toBe('failed');
    expect(verdict.reason).toBe(
      'The build as served differs from the one published: assets/i18n/fr.json (404), 123.ab12cd34.js (its bytes are not the ones recorded).',
    );
    expect(verdict.detail).toMatchObject({
      mismatched: ['123.ab12cd34.js'],
      missing: [{ path: 'assets/i18n/fr.json', status: 404 }],
    });
  });

  it('fails a build recorded without its entry, a path out of its folder, or a remote the host does not name', async () => {
    const { 'remoteEntry.js': _entry, ...withoutEntry } = recorded();
    await expect(checkIntegrity(job(withoutEntry), { hostUrl: host.url })).resolves.toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/without the integrity of its remoteEntry\.js/),
    });
    await expect(
      checkIntegrity(job({ ...recorded(), '../intro/remoteEntry.js': 'sha384-x' }), { hostUrl: host.url }),
    ).resolves.toMatchObject({
      outcome: 'failed',
      reason: "The recorded integrity names paths outside the build's folder: ../intro/remoteEntry.js.",
    });
    config = { remotes: { intro: '/remotes/intro/remoteEntry.js' } };
    await expect(checkIntegrity(job(), { hostUrl: host.url })).resolves.toMatchObject({
      outcome: 'failed',
      reason: `The live host's config.json names no entry for the remote "signup".`,
    });
  });

  it('is inconclusive when the host cannot be reached: the check was not made', async () => {
    const verdict = await checkIntegrity(job(), { hostUrl: await refusedUrl() });
    expect(verdict.outcome).toBe('inconclusive');
    expect(verdict.reason).toMatch(
      /^The live host cannot be read: http:\/\/127\.0\.0\.1:\d+\/config\.json cannot be fetched: .*ECONNREFUSED/,
    );
  });
});
