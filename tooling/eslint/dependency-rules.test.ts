import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from '../serve/local-topology';

/**
 * The dependency rules of eslint.config.js, each shown to fail on a deliberate violation: probe
 * files are written into the tree where the violation would live, linted with the real config in
 * one ESLint run (its own process, as `npm run lint` runs it: ESLint loads its config with a
 * dynamic import, which Jest's module sandbox refuses), and removed.
 */
const PROBE = `lint-probe-${process.pid}`;

const violations = [
  ['a service importing the app layer', 'host/src/services', "import { App } from '../../app/app';", 'bottom layer'],
  [
    'a service importing the shell layer',
    'host/src/services',
    "import { useHostServices } from '../../shell/host-services';",
    'bottom layer',
  ],
  [
    'config importing a service',
    'host/src/config',
    "import { createStorage } from '../../services/storage/create-storage';",
    'depends on nothing',
  ],
  [
    'the shell importing a feature',
    'host/src/shell',
    "import { RemoteRoute } from '../../features/remotes/remote-route';",
    'below features',
  ],
  [
    'a feature importing the app layer',
    'host/src/features/remotes',
    "import { App } from '../../../app/app';",
    'never import app',
  ],
  [
    'a feature importing another feature',
    'host/src/features/not-found',
    "import { RemoteRoute } from '../../remotes/remote-route';",
    'no other feature',
  ],
  [
    'the host importing a remote',
    'host/src/app',
    "import { meta } from '../../../../remote-intro/src/exposed-screen';",
    'never imported',
  ],
  ['the API importing an app', 'api/src', "import { boot } from '../../../host/src/app/bootstrap';", 'imports no app'],
  [
    'tooling importing the benchmark',
    'tooling',
    "import { measureFirstRender } from '../../bench/first-render';",
    'imports no app',
  ],
  [
    'the list of remotes importing a room of tooling/',
    'tooling/remotes',
    "import { LOCAL_PORTS } from '../../serve/local-topology';",
    'tooling/remotes/ imports no other room',
  ],
  [
    'page composition importing deployment generation (a room above it)',
    'tooling/composition',
    "import { DERIVED_FILES } from '../../deployment/derived-files';",
    'tooling/composition/ imports only tooling/remotes/',
  ],
  [
    'the release tool importing tooling/ beyond the list of remotes',
    'release-cli/src',
    "import { LOCAL_PORTS } from '../../../tooling/serve/local-topology';",
    'release-cli/ imports only tooling/remotes/',
  ],
  [
    'the gate runner importing a room of tooling/ it does not use',
    'gate-runner/src',
    "import { LOCAL_PORTS } from '../../../tooling/serve/local-topology';",
    'gate-runner/ imports only tooling/process/, release-cli/',
  ],
  [
    'the packed release tool importing its test code',
    'release-cli/src',
    "import { startS3Server } from '../../test/s3-server';",
    'the packed tool does not import it',
  ],
  [
    'the federated contract importing a shell implementation',
    'shared/src/contract',
    "import { createHttpClient } from '../../host';",
    'federated contract carries no',
  ],
  [
    'the builds’ wire format importing another folder of shared',
    'shared/src/builds',
    "import { parsePageToken } from '../../telemetry/page-token';",
    'bottom of shared',
  ],
  [
    'a remote’s shipped code importing the test shell',
    'remote-signup/src',
    "import { createTestShell } from '@special-gift/shared/testing';",
    'test-only',
  ],
  [
    'a domain of the API reaching into another’s internals',
    'api/src/telemetry',
    "import { parseToken } from '../../access/token-store';",
    'only through its index.ts',
  ],
  [
    'the API’s infrastructure importing a domain',
    'api/src/http',
    "import { releaseRoutes } from '../../releases';",
    'infrastructure under every domain',
  ],
  [
    'shared’s shipped code importing the test card codes',
    'shared/src/validation',
    "import { VALID_TEST_CARD_CODES } from '../../testing/cards';",
    'test-only',
  ],
] as const;

/** Rules of `no-restricted-imports` (package boundaries), checked the same way. */
const packageViolations = [
  [
    'a remote importing the host’s implementations',
    'remote-signup/src',
    "import { createHttpClient } from '@special-gift/shared/host';",
    'implementations are the host',
  ],
  [
    'a remote importing the router',
    'remote-intro/src',
    "import { useNavigate } from 'react-router-dom';",
    'never a router',
  ],
  [
    'a remote importing another remote',
    'remote-thankyou/src',
    "import { meta } from '../../../remote-intro/src/exposed-screen';",
    'only on @special-gift/shared',
  ],
  [
    'shared importing an app',
    'shared/src/contract',
    "import { boot } from '../../../../host/src/app/bootstrap';",
    'imports no app code',
  ],
] as const;

const probes: Record<string, string> = {
  ...Object.fromEntries(
    violations.map(([, where, source], index) => [
      join(where, PROBE, `violation-${index}.ts`),
      `${source}\nexport const probe = ${index};\n`,
    ]),
  ),
  ...Object.fromEntries(
    packageViolations.map(([, where, source], index) => [
      join(where, PROBE, `package-${index}.ts`),
      `${source}\nexport const probe = ${index};\n`,
    ]),
  ),
  [join('host/src/services', PROBE, 'cycle-a.ts')]: "import { b } from './cycle-b';\nexport const a = () => b;\n",
  [join('host/src/services', PROBE, 'cycle-b.ts')]: "import { a } from './cycle-a';\nexport const b = () => a;\n",
  [join('host/src/features/remotes', PROBE, 'allowed.ts')]:
    "import { useHostServices } from '../../../shell/host-services';\nimport { RemoteLoadError } from '../../../services/remotes/remote-load-error';\nexport const allowed = [useHostServices, RemoteLoadError];\n",
  [join('api/src/telemetry', PROBE, 'allowed.ts')]:
    "import { authorize } from '../../access';\nimport { ApiError } from '../../http/api-error';\nexport const allowed = [authorize, ApiError];\n",
  [join('tooling/serve', PROBE, 'allowed.ts')]:
    "import { REMOTES } from '../../remotes';\nimport { PAGE_TOKEN } from '../../composition/composition';\nimport { openBuildStore } from '../../../release-cli/src/store/open-store';\nexport const allowed = [REMOTES, PAGE_TOKEN, openBuildStore];\n",
  [join('shared/src/validation', PROBE, 'allowed.test.ts')]:
    "import { createTestShell } from '@special-gift/shared/testing';\nimport { VALID_TEST_CARD_CODES } from '../../testing/cards';\nexport const allowed = [createTestShell, VALID_TEST_CARD_CODES];\n",
};

let messagesByFile: Map<string, string[]>;

beforeAll(() => {
  for (const [file, text] of Object.entries(probes)) {
    mkdirSync(join(REPO_ROOT, dirname(file)), { recursive: true });
    writeFileSync(join(REPO_ROOT, file), text);
  }
  const eslint = join(REPO_ROOT, 'node_modules', '.bin', 'eslint');
  const run = spawnSync(eslint, ['--format', 'json', ...Object.keys(probes)], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`eslint did not run: ${run.stderr}`);
  const results = JSON.parse(run.stdout) as Array<{
    filePath: string;
    messages: Array<{ ruleId: string | null; message: string }>;
  }>;
  messagesByFile = new Map(
    results.map((result) => [
      relative(REPO_ROOT, result.filePath),
      result.messages.map((message) => `${message.ruleId}: ${message.message}`),
    ]),
  );
}, 120_000);

afterAll(() => {
  for (const file of Object.keys(probes)) rmSync(join(REPO_ROOT, dirname(file)), { recursive: true, force: true });
});

describe('dependency rules (eslint.config.js)', () => {
  it.each(violations.map((violation, index) => [...violation, index] as const))(
    'refuses %s',
    (_, where, __, message, index) => {
      expect(messagesByFile.get(join(where, PROBE, `violation-${index}.ts`))).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^import-x/no-restricted-paths: .*${message}`))]),
      );
    },
  );

  it.each(packageViolations.map((violation, index) => [...violation, index] as const))(
    'refuses %s',
    (_, where, __, message, index) => {
      expect(messagesByFile.get(join(where, PROBE, `package-${index}.ts`))).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^no-restricted-imports: .*${message}`))]),
      );
    },
  );

  it('refuses an import cycle', () => {
    for (const file of ['cycle-a.ts', 'cycle-b.ts']) {
      expect(messagesByFile.get(join('host/src/services', PROBE, file))).toEqual([
        'import-x/no-cycle: Dependency cycle detected',
      ]);
    }
  });

  it('accepts the allowed direction: a feature using the shell and a service', () => {
    expect(messagesByFile.get(join('host/src/features/remotes', PROBE, 'allowed.ts'))).toEqual([]);
  });

  it('accepts an API domain using another through its index.ts, and the shared infrastructure', () => {
    expect(messagesByFile.get(join('api/src/telemetry', PROBE, 'allowed.ts'))).toEqual([]);
  });

  it('accepts a room of tooling/ importing the rooms below it: local serving using the list, composition and the release tool', () => {
    expect(messagesByFile.get(join('tooling/serve', PROBE, 'allowed.ts'))).toEqual([]);
  });

  it('accepts a test importing the test-only code', () => {
    expect(messagesByFile.get(join('shared/src/validation', PROBE, 'allowed.test.ts'))).toEqual([]);
  });
});
