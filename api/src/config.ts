import path from 'node:path';

export type DatabaseConfig =
  /** The embedded default: PGlite in a directory, one process at a time. */
  | { readonly engine: 'pglite'; readonly dataDir: string; readonly fsync: boolean }
  /** A PostgreSQL server, shared by any number of API processes. */
  | { readonly engine: 'postgres'; readonly url: string; readonly poolSize: number };

export interface ApiConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  /** Adds `Secure` to the XSRF cookie. */
  readonly cookieSecure: boolean;
  /** The origins browsers may send mutating requests from, besides the API's own; empty: only its own. */
  readonly allowedOrigins: readonly string[];
  /** Sign-up attempts one client may make per minute; 0 turns the limit off. */
  readonly signUpsPerMinute: number;
  /** How long an idempotency key replays its answer; purged afterwards. */
  readonly idempotencyKeyTtlHours: number;
  /** After SIGTERM, how long readiness fails before the listener closes (for a load balancer to notice). */
  readonly shutdownDelayMs: number;
  /** After SIGTERM, the most time in-flight requests and open connections get before they are cut. */
  readonly shutdownGraceMs: number;
}

/** The repository root's `.data/api` (this file is api/src/config.ts, or api/dist/main.js once built). */
export const DEFAULT_DATA_DIR = path.resolve(__dirname, '..', '..', '.data', 'api');

function parseInteger(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(number) || number < min || number > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return number;
}

function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'on' || value === 'true') return true;
  if (value === 'off' || value === 'false') return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

function parseDatabase(env: Readonly<Record<string, string | undefined>>): DatabaseConfig {
  const url = env.DATABASE_URL;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be a postgres:// URL');
    return { engine: 'postgres', url, poolSize: parseInteger('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10, 1, 1000) };
  }
  return {
    engine: 'pglite',
    dataDir: env.API_DATA_DIR ? path.resolve(env.API_DATA_DIR) : DEFAULT_DATA_DIR,
    fsync: parseSwitch('PGLITE_FSYNC', env.PGLITE_FSYNC, true),
  };
}

function parseOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((origin) => {
    const trimmed = origin.trim();
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]+)?$/.test(trimmed)) throw new Error(`PUBLIC_ORIGIN must be origins like https://gift.example, got "${trimmed}"`);
    return trimmed.toLowerCase();
  });
}

/** Reads the API's settings from the environment; a bad value fails at start-up, not on first use. */
export function readConfig(env: Readonly<Record<string, string | undefined>>): ApiConfig {
  const allowedOrigins = parseOrigins(env.PUBLIC_ORIGIN);
  return {
    port: parseInteger('PORT', env.PORT, 3004, 0, 65535),
    host: env.HOST || '0.0.0.0',
    database: parseDatabase(env),
    // Secure whenever the public site is HTTPS: a cookie set over HTTPS must never travel over HTTP.
    cookieSecure: env.COOKIE_SECURE === 'true' || allowedOrigins.some((origin) => origin.startsWith('https:')),
    allowedOrigins,
    signUpsPerMinute: parseInteger('SIGN_UPS_PER_MINUTE', env.SIGN_UPS_PER_MINUTE, 20, 0, 1_000_000),
    idempotencyKeyTtlHours: parseInteger('IDEMPOTENCY_KEY_TTL_HOURS', env.IDEMPOTENCY_KEY_TTL_HOURS, 24, 1, 24 * 365),
    shutdownDelayMs: parseInteger('SHUTDOWN_DELAY_MS', env.SHUTDOWN_DELAY_MS, 0, 0, 60_000),
    shutdownGraceMs: parseInteger('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 10_000, 0, 120_000),
  };
}
