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
export const STATE_DIR = join(REPO_ROOT, '.e2e');
export const API_DATA_DIR = join(STATE_DIR, 'api-data');
/** The e2e API's OPERATOR_TOKEN (the telemetry report): a fixed test value, at least 32 characters. */
export const E2E_OPERATOR_TOKEN = 'e2e-operator-token-not-a-secret-0123';

export type AppName = 'host' | RemoteName | 'api' | 'monolith';
export const APPS: readonly AppName[] = ['api', ...REMOTES.map((remote) => remote.name), 'host', 'monolith'];
