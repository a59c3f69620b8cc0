import { isIP } from 'node:net';
import path from 'node:path';
import { parseS3Location } from '@special-gift/shared/builds';
import { IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS, SIGN_UP_OUTBOX_MAX_AGE_HOURS } from '@special-gift/shared/api';
import { DEFAULT_LOCK_WAIT_MS } from './db/data-dir-lock';
import type { DatabaseConfig } from './db/open-database';
import { localStateKey, parseKeyList, type StateKey } from '@special-gift/shared/release-state';
import { sign } from './http/signing';
import { rolloutRuleFromEnv, type RolloutRuleParameters } from './rollouts';
import { DEFAULT_RUNNER_SETTINGS, type RolloutRunnerSettings } from './rollout-runner';

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
  /**
   * Proxies whose `X-Forwarded-For` is believed (IP addresses, CIDR ranges, host names resolved
   * from time to time); empty: the client is always the connection's peer.
   */
  readonly trustedProxies: readonly string[];
  /** After SIGTERM or SIGINT, how long readiness fails while everything else is served as usual (for a load balancer to notice). */
  readonly shutdownDelayMs: number;
  /** After that, the most time in-flight requests and open connections get before they are cut. */
  readonly shutdownGraceMs: number;
  /** Telemetry batches one client may send per minute; 0 turns the limit off. */
  readonly telemetryBatchesPerMinute: number;
  /** Stored telemetry older than this many days is purged. */
  readonly telemetryRetentionDays: number;
  /** Failed authentications one client may make per minute before all its requests get 429; 0 turns the limit off. */
  readonly authFailuresPerMinute: number;
  /**
   * The teams' secret, sent as a bearer token by the release tool and the telemetry report; unset:
   * release writes answer 503 and the report refuses everyone.
   */
  readonly operatorToken: string | undefined;
  /** Which environment's release pointers this API serves and moves (`production`, `staging`, ...). */
  readonly releaseEnvironment: string;
  /**
   * The HMAC key of page tokens (docs/telemetry.md); unset: derived from the operator token, and
   * with neither, pages get no token and every batch is unsigned.
   */
  readonly pageTokenKey: string | undefined;
  /** Page tokens one client address may be issued per minute; 0 turns the limit off. */
  readonly pageTokensPerMinute: number;
  /** The canary decision rule's parameters, `ROLLOUT_*` (defaults: api/src/rollouts/parameters.ts, docs/rollouts.md). */
  readonly rolloutRule: RolloutRuleParameters;
  /**
   * Where the release state is written (docs/releases.md, "Release state"), `RELEASE_STATE_STORE`:
   * the build store's folder (`<store>/_state/<environment>/…`); unset: recorded, not written.
   */
  readonly releaseStateStore: string | undefined;
  /**
   * `RELEASE_STATE_KEYS` (`<id>:<secret>,…`): the first signs current.json, the hosts accept all;
   * unset: one key derived from the operator token (`npm run up`, the suite).
   */
  readonly releaseStateKeys: readonly StateKey[];
  /** The rollout runner (docs/rollouts.md): `ROLLOUT_RUNNER`, `ROLLOUT_*_SECONDS`, `ROLLOUT_HOST_URL`, `GATE_RUNNER_TOKEN`. */
  readonly rolloutRunner: RolloutRunnerSettings;
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
    return {
      engine: 'postgres',
      url,
      poolSize: parseInteger('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10, 1, 1000),
    };
  }
  return {
    engine: 'pglite',
    dataDir: env.API_DATA_DIR ? path.resolve(env.API_DATA_DIR) : DEFAULT_DATA_DIR,
    fsync: parseSwitch('PGLITE_FSYNC', env.PGLITE_FSYNC, true),
    lockWaitMs: parseInteger('DATA_DIR_LOCK_WAIT_MS', env.DATA_DIR_LOCK_WAIT_MS, DEFAULT_LOCK_WAIT_MS, 0, 600_000),
  };
}

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function parseProxies(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((entry) => {
    const trimmed = entry.trim();
    const [address = '', prefix] = trimmed.split('/');
    const ipVersion = isIP(address);
    const validPrefix =
      prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (ipVersion === 6 ? 128 : 32));
    if ((ipVersion !== 0 && validPrefix) || (prefix === undefined && HOST_NAME.test(trimmed)))
      return trimmed.toLowerCase();
    throw new Error(`TRUSTED_PROXIES must be IP addresses, CIDR ranges or host names, got "${trimmed}"`);
  });
}

function parseOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((origin) => {
    const trimmed = origin.trim();
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]+)?$/.test(trimmed))
      throw new Error(`PUBLIC_ORIGIN must be origins like https://gift.example, got "${trimmed}"`);
    return trimmed.toLowerCase();
  });
}

/**
 * At least 32 characters, so guessing it is out of reach: the token guards every release and the
 * field report, and keys the preview cookie's signature.
 */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;

/** `OPERATOR_TOKEN`: printable ASCII without spaces (it travels in an `Authorization: Bearer` header). */
export function readOperatorToken(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const token = env.OPERATOR_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < OPERATOR_TOKEN_MIN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw new Error(
      `OPERATOR_TOKEN must be at least ${OPERATOR_TOKEN_MIN_LENGTH} printable characters without spaces (npm run up creates one in .data/operator-token; elsewhere e.g. openssl rand -base64 32)`,
    );
  }
  return token;
}

/** `PAGE_TOKEN_KEY`: a secret as long as the operator token's minimum (e.g. openssl rand -base64 32). */
function readPageTokenKey(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  // During a rotation, two keys, comma-separated: the first signs, both verify (docs/telemetry.md).
  if (value.split(',').some((key) => key.trim().length < OPERATOR_TOKEN_MIN_LENGTH))
    throw new Error(
      `PAGE_TOKEN_KEY must be at least ${OPERATOR_TOKEN_MIN_LENGTH} characters per key (e.g. openssl rand -base64 32), comma-separated during a rotation, or unset to derive it from OPERATOR_TOKEN`,
    );
  return value;
}

/**
 * The keys the release state is signed with. Derived from the operator token when unset, under a
 * label of its own, so the key is never the token and a host given it can do nothing else.
 */
function readStateKeys(value: string | undefined, operatorToken: string | undefined): StateKey[] {
  if (value) return parseKeyList(value);
  if (!operatorToken) return [];
  return [localStateKey(operatorToken, sign)];
}

function parseStateStore(value: string | undefined, engine: 'pglite' | 'postgres'): string | undefined {
  if (value === undefined || value === '') return undefined;
  const s3 = parseS3Location(value);
  if (s3) {
    // A publish holds the head's row lock while it writes; PGlite has one connection, so a slow
    // bucket would hold every sign-up behind it. PGlite is the one-process setup: its store is a folder.
    if (engine === 'pglite')
      throw new Error(
        "RELEASE_STATE_STORE=s3://… needs PostgreSQL (DATABASE_URL); with PGlite, give the build store's folder",
      );
    return value;
  }
  if (!path.isAbsolute(value))
    throw new Error(
      `RELEASE_STATE_STORE must be the build store's folder as an absolute path, or s3://bucket/prefix, got "${value}"`,
    );
  return value;
}

function parseEnvironment(value: string | undefined): string {
  if (value === undefined || value === '') return 'production';
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(value))
    throw new Error(`RELEASE_ENVIRONMENT must be a lower-case name like production, got "${value}"`);
  return value;
}

function parseRolloutRunner(env: Readonly<Record<string, string | undefined>>): RolloutRunnerSettings {
  const d = DEFAULT_RUNNER_SETTINGS;
  const tickSeconds = parseInteger('ROLLOUT_TICK_SECONDS', env.ROLLOUT_TICK_SECONDS, d.tickSeconds, 1, 3600);
  const leaseSeconds = parseInteger('ROLLOUT_LEASE_SECONDS', env.ROLLOUT_LEASE_SECONDS, d.leaseSeconds, 3, 86_400);
  // A lease shorter than three ticks would lapse between a healthy leader's renewals.
  if (leaseSeconds < 3 * tickSeconds)
    throw new Error(
      `ROLLOUT_LEASE_SECONDS (${leaseSeconds}) must be at least 3 × ROLLOUT_TICK_SECONDS (${tickSeconds})`,
    );
  const hostUrl = env.ROLLOUT_HOST_URL || undefined;
  if (hostUrl !== undefined && !/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]+)?\/?$/.test(hostUrl))
    throw new Error(`ROLLOUT_HOST_URL must be the live host's origin like http://host:8080, got "${hostUrl}"`);
  const gateRunnerToken = env.GATE_RUNNER_TOKEN || undefined;
  if (
    gateRunnerToken !== undefined &&
    (gateRunnerToken.length < OPERATOR_TOKEN_MIN_LENGTH || !/^[\x21-\x7e]+$/.test(gateRunnerToken))
  )
    throw new Error(
      `GATE_RUNNER_TOKEN must be at least ${OPERATOR_TOKEN_MIN_LENGTH} printable characters without spaces`,
    );
  if (gateRunnerToken !== undefined && gateRunnerToken === env.OPERATOR_TOKEN)
    throw new Error('GATE_RUNNER_TOKEN must differ from OPERATOR_TOKEN: the gate runner gets no operator rights');
  const webhookKey = env.ROLLOUT_WEBHOOK_KEY || undefined;
  if (webhookKey !== undefined && webhookKey.length < OPERATOR_TOKEN_MIN_LENGTH)
    throw new Error(`ROLLOUT_WEBHOOK_KEY must be at least ${OPERATOR_TOKEN_MIN_LENGTH} characters`);
  const webhookHosts = env.ROLLOUT_WEBHOOK_HOSTS
    ? env.ROLLOUT_WEBHOOK_HOSTS.split(',').map((host) => host.trim())
    : null;
  if (webhookHosts?.some((host) => !/^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:]+\](:[0-9]{1,5})?$/.test(host)))
    throw new Error(
      `ROLLOUT_WEBHOOK_HOSTS must list host names or host:port, comma-separated, got "${env.ROLLOUT_WEBHOOK_HOSTS}"`,
    );
  return {
    enabled: parseSwitch('ROLLOUT_RUNNER', env.ROLLOUT_RUNNER, d.enabled),
    tickSeconds,
    leaseSeconds,
    minStepDwellSeconds: parseInteger(
      'ROLLOUT_MIN_STEP_DWELL_SECONDS',
      env.ROLLOUT_MIN_STEP_DWELL_SECONDS,
      d.minStepDwellSeconds,
      1,
      86_400,
    ),
    gateClaimSeconds: parseInteger(
      'ROLLOUT_GATE_CLAIM_SECONDS',
      env.ROLLOUT_GATE_CLAIM_SECONDS,
      d.gateClaimSeconds,
      10,
      3600,
    ),
    hostUrl,
    gateRunnerToken,
    webhookKey,
    webhookHosts,
  };
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
    // Never below the longest a device queues a sign-up offline: its replay would be refused (409).
    idempotencyKeyTtlHours: parseInteger(
      'IDEMPOTENCY_KEY_TTL_HOURS',
      env.IDEMPOTENCY_KEY_TTL_HOURS,
      IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS,
      SIGN_UP_OUTBOX_MAX_AGE_HOURS,
      24 * 365,
    ),
    trustedProxies: parseProxies(env.TRUSTED_PROXIES),
    shutdownDelayMs: parseInteger('SHUTDOWN_DELAY_MS', env.SHUTDOWN_DELAY_MS, 0, 0, 60_000),
    shutdownGraceMs: parseInteger('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 10_000, 0, 120_000),
    telemetryBatchesPerMinute: parseInteger(
      'TELEMETRY_BATCHES_PER_MINUTE',
      env.TELEMETRY_BATCHES_PER_MINUTE,
      60,
      0,
      1_000_000,
    ),
    telemetryRetentionDays: parseInteger('TELEMETRY_RETENTION_DAYS', env.TELEMETRY_RETENTION_DAYS, 30, 1, 3650),
    authFailuresPerMinute: parseInteger('AUTH_FAILURES_PER_MINUTE', env.AUTH_FAILURES_PER_MINUTE, 30, 0, 1_000_000),
    operatorToken: readOperatorToken(env),
    releaseEnvironment: parseEnvironment(env.RELEASE_ENVIRONMENT),
    pageTokenKey: readPageTokenKey(env.PAGE_TOKEN_KEY),
    pageTokensPerMinute: parseInteger('PAGE_TOKENS_PER_MINUTE', env.PAGE_TOKENS_PER_MINUTE, 60, 0, 1_000_000),
    rolloutRule: rolloutRuleFromEnv(env),
    releaseStateStore: parseStateStore(env.RELEASE_STATE_STORE, env.DATABASE_URL ? 'postgres' : 'pglite'),
    releaseStateKeys: readStateKeys(env.RELEASE_STATE_KEYS, env.OPERATOR_TOKEN || undefined),
    rolloutRunner: parseRolloutRunner(env),
  };
}
