import { join } from 'node:path';
import { REMOTES, type RemoteName } from '../../tooling/remotes';
import { REPO_ROOT, type Topology } from '../../tooling/serve/local-topology';

/**
 * The e2e suite's own ports, so it never collides with a running `npm run serve`. `monolith` serves
 * the benchmark's baseline build (bench/monolith), which the bytes budget is measured against.
 * E2E_PORT_BASE moves the whole block (default 4300) so two checkouts can run the suite at once.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 4300);
if (!Number.isInteger(PORT_BASE) || PORT_BASE < 1024 || PORT_BASE > 65_000)
  throw new Error(`E2E_PORT_BASE must be a port number, got "${process.env.E2E_PORT_BASE}"`);
export const E2E_PORTS: Topology & { monolith: number } = {
  host: PORT_BASE,
  ...(Object.fromEntries(REMOTES.map((remote, index) => [remote.name, PORT_BASE + 1 + index])) as Record<
    RemoteName,
    number
  >),
  api: PORT_BASE + 1 + REMOTES.length,
  monolith: PORT_BASE + 2 + REMOTES.length,
};
export const HOST_URL = `http://localhost:${E2E_PORTS.host}`;
export const MONOLITH_URL = `http://localhost:${E2E_PORTS.monolith}`;
export const API_URL = `http://127.0.0.1:${E2E_PORTS.api}`;
/**
 * The API's own origin as an operator opens its pages (console, report; docs/console.md): the
 * site's host name on the API's port. Another origin than the host's (sessionStorage is kept per
 * origin, port included), yet the console's preview cookie reaches the host's pages (a cookie is
 * kept per host name, whatever the port).
 */
export const OPERATOR_PAGES_URL = `http://localhost:${E2E_PORTS.api}`;
export const STATE_DIR = join(REPO_ROOT, '.e2e');
export const API_DATA_DIR = join(STATE_DIR, 'api-data');
/** The suite's build store (docs/releases.md): each remote's nginx serves `<store>/<remote>` under /builds/. */
export const BUILD_STORE_DIR = join(STATE_DIR, 'builds');
/** The operator token the suite's API is started with (releases, the field report). */
export const E2E_OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdefghijklmnop';
/** The page tokens' key (docs/telemetry.md): the host's nginx signs with it, the API verifies. */
export const E2E_PAGE_TOKEN_KEY = 'e2e-page-token-key-0123456789abcdefghijklmnop';

export type AppName = 'host' | RemoteName | 'api' | 'monolith';
export const APPS: readonly AppName[] = ['api', ...REMOTES.map((remote) => remote.name), 'host', 'monolith'];
