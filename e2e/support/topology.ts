import { join } from 'node:path';
import { REPO_ROOT, type Topology } from '../../tooling/serve/local-topology';

/**
 * The e2e suite's own ports, so it never collides with a running `npm run serve`. `monolith` serves
 * the benchmark's baseline build (tooling/bench/monolith), which the bytes budget is measured against.
 */
export const E2E_PORTS: Topology & { monolith: number } = { host: 4300, intro: 4301, signup: 4302, thankyou: 4303, api: 4304, monolith: 4305 };
export const HOST_URL = `http://localhost:${E2E_PORTS.host}`;
export const MONOLITH_URL = `http://localhost:${E2E_PORTS.monolith}`;
export const API_URL = `http://127.0.0.1:${E2E_PORTS.api}`;
export const STATE_DIR = join(REPO_ROOT, '.e2e');
export const API_DATA_DIR = join(STATE_DIR, 'api-data');

export type AppName = 'host' | 'intro' | 'signup' | 'thankyou' | 'api' | 'monolith';
export const APPS: readonly AppName[] = ['api', 'intro', 'signup', 'thankyou', 'host', 'monolith'];
