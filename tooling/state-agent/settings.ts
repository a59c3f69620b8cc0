import { ENVIRONMENT_PATTERN, localStateKey, parseKeyList, type StateKey } from '@special-gift/shared/release-state';
import { pageTokenKeys } from '@special-gift/shared/telemetry';
import { hmacBytes } from '../composition/page-token-signer';
import { hmacBase64url } from '../composition/release-state-source';

/** The state agent's settings (docs/releases.md, "The state agent"), read from its environment. */
export interface StateAgentSettings {
  /** The build store's public base URL with its prefix, read anonymously (`http://s3:4568/sg-builds/builds`). */
  readonly storeBase: string;
  readonly environment: string;
  /** The keys the host trusts for current.json (RELEASE_STATE_KEYS, or the one derived from OPERATOR_TOKEN). */
  readonly stateKeys: readonly StateKey[];
  /** PAGE_TOKEN_KEY's keys (or the one derived from OPERATOR_TOKEN): the first signs; none: no tokens. */
  readonly pageTokenKeys: readonly Uint8Array[];
  readonly pageTokensPerMinute: number;
  readonly port: number;
  /** The address it listens on: 127.0.0.1 beside the host in a pod, 0.0.0.0 on a compose network. */
  readonly listenHost: string;
  /** How often the store is read in the background. */
  readonly refreshMs: number;
  /** Where the last accepted state is kept for a restart while the store is down (RELEASE_STATE_CACHE_FILE), if anywhere. */
  readonly keptStateFile?: string;
}

/** At least this many characters per secret: the API's minimum for OPERATOR_TOKEN and PAGE_TOKEN_KEY. */
const MIN_SECRET_LENGTH = 32;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got '${value}')`);
  return Number(value);
}

/** The settings, or an Error that says which one is wrong and what it should be. */
export function readStateAgentSettings(env: NodeJS.ProcessEnv): StateAgentSettings {
  const storeBase = (env.RELEASE_STATE_BASE_URL ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]+)?(\/[A-Za-z0-9._~-]+)*$/.test(storeBase))
    throw new Error(
      `RELEASE_STATE_BASE_URL must be the build store's public URL with its prefix, like http://s3:4568/sg-builds/builds (got '${env.RELEASE_STATE_BASE_URL ?? ''}')`,
    );
  const environment = env.RELEASE_ENVIRONMENT || 'production';
  if (!ENVIRONMENT_PATTERN.test(environment))
    throw new Error(`RELEASE_ENVIRONMENT must be a lower-case name like production (got '${environment}')`);
  const operatorToken = env.OPERATOR_TOKEN || undefined;
  if (operatorToken !== undefined && operatorToken.length < MIN_SECRET_LENGTH)
    throw new Error(`OPERATOR_TOKEN must be at least ${MIN_SECRET_LENGTH} characters`);
  // As the API and serve-app.ts: the keys given, else the one the API derives from the operator token.
  const stateKeys = env.RELEASE_STATE_KEYS
    ? parseKeyList(env.RELEASE_STATE_KEYS)
    : operatorToken
      ? [localStateKey(operatorToken, hmacBase64url)]
      : [];
  if (stateKeys.length === 0)
    throw new Error(
      'RELEASE_STATE_KEYS (or OPERATOR_TOKEN, to derive the local key) must be set: without a key no state can be trusted',
    );
  const pageTokenKey = env.PAGE_TOKEN_KEY || undefined;
  if (pageTokenKey?.split(',').some((key) => key.trim().length < MIN_SECRET_LENGTH))
    throw new Error(
      `PAGE_TOKEN_KEY must be at least ${MIN_SECRET_LENGTH} characters per key, comma-separated during a rotation, or unset to derive it from OPERATOR_TOKEN`,
    );
  const listenHost = env.HOST || '127.0.0.1';
  if (!/^[0-9.]+$|^[0-9A-Fa-f:]+$/.test(listenHost))
    throw new Error(`HOST must be an address to listen on, like 127.0.0.1 (got '${listenHost}')`);
  const keptStateFile = env.RELEASE_STATE_CACHE_FILE || undefined;
  if (keptStateFile !== undefined && !/^\/[A-Za-z0-9._/-]+$/.test(keptStateFile))
    throw new Error(`RELEASE_STATE_CACHE_FILE must be an absolute file path (got '${keptStateFile}')`);
  return {
    storeBase,
    environment,
    stateKeys,
    pageTokenKeys: pageTokenKeys(pageTokenKey, operatorToken, hmacBytes),
    pageTokensPerMinute: integer(env, 'PAGE_TOKENS_PER_MINUTE', 60, 0, 1_000_000),
    port: integer(env, 'PORT', 3010, 1, 65_535),
    listenHost,
    refreshMs: integer(env, 'RELEASE_STATE_REFRESH_MS', 250, 100, 60_000),
    ...(keptStateFile ? { keptStateFile } : {}),
  };
}
