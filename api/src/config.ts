import path from 'node:path';

export interface ApiConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly cookieSecure: boolean;
}

/** The repository root's `.data/api` (this file is api/src/config.ts). */
export const DEFAULT_DATA_DIR = path.resolve(__dirname, '..', '..', '.data', 'api');

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3004;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !/^[0-9]+$/.test(value)) throw new Error(`PORT must be an integer from 0 to 65535, got "${value}"`);
  return port;
}

/** Reads the API's settings from the environment; a bad value fails at start-up, not on first use. */
export function readConfig(env: Readonly<Record<string, string | undefined>>): ApiConfig {
  return {
    port: parsePort(env.PORT),
    host: env.HOST || '0.0.0.0',
    dataDir: env.API_DATA_DIR ? path.resolve(env.API_DATA_DIR) : DEFAULT_DATA_DIR,
    cookieSecure: env.COOKIE_SECURE === 'true',
  };
}
