// The release state (`@special-gift/shared/release-state`): what an environment serves, written by the API
// to the build store on every pointer change and read from there by the composers (nginx through
// njs, the Node twin), so that composing a page needs no API (docs/releases.md, "Release state").
// The one module that spells, prints and checks it. Pure (no DOM, no Node): signing is the
// holder's (the API signs, hosts verify, each with its own HMAC-SHA256).
//
// Objects, under the build store's prefix (`_` starts no remote name, so no remote serves them):
//   _state/<environment>/states/<serial>-<sha>.json   immutable: one per pointer change
//   _state/<environment>/current.json                 names the latest, signed; written last
//
// state   = canonical JSON (keys sorted, no spaces) of
//           { format: "sg-release-state/1", environment, serial, createdAt,
//             remotes: { <remote>: { live, canary, canaryPercent, revision,
//                                    integrity: { <build>: { <path>: <sha384 SRI> } } } } }
//           a remote with no pointer is absent (its origin's image build serves it); `integrity`
//           holds only the files a page names (isPageLoaded) of the live and canary builds.
// current = JSON { format: "sg-release-current/1", environment, serial, state, sha256, publishedAt,
//           keyId, alg: "HS256", signature }
//           signature = base64url(HMAC-SHA256(key[keyId], currentPayload(current)))
//           sha256    = lower-case hex SHA-256 of the state object's bytes, so the signature on
//                       current authenticates the state it names (the state itself carries none).
import { isPageLoaded, SRI_PATTERN } from '../composition/page-integrity';
import { BUILD_ID_PATTERN, formatPageBuilds, MAX_PAGE_BUILDS, REMOTE_NAME_PATTERN } from '../builds';

export const STATE_FORMAT = 'sg-release-state/1';
export const CURRENT_FORMAT = 'sg-release-current/1';
/** The folder of the states, under the build store's prefix. */
export const STATE_FOLDER = '_state';
/** A state's object name, relative to its environment's folder. */
export const STATE_NAME_PATTERN = /^states\/[0-9]{10}-[0-9a-f]{16}\.json$/;
/** An environment's name: as the API's `RELEASE_ENVIRONMENT`. */
export const ENVIRONMENT_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
/** A key's id (`RELEASE_STATE_KEYS="<id>:<secret>,…"`). */
export const KEY_ID_PATTERN = /^[A-Za-z0-9]{1,8}$/;
/** At least this many characters of secret per key: 32 bytes' worth of a random text. */
export const MIN_KEY_LENGTH = 32;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const MAX_SERIAL = 9_999_999_999;

export interface RemoteState {
  readonly live: string;
  readonly canary: string | null;
  readonly canaryPercent: number;
  readonly revision: number;
  /** By build (live, and canary if any), the integrity of each file a page names. */
  readonly integrity: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface ReleaseState {
  readonly format: typeof STATE_FORMAT;
  readonly environment: string;
  readonly serial: number;
  readonly createdAt: string;
  readonly remotes: Readonly<Record<string, RemoteState>>;
}

export interface ReleaseCurrent {
  readonly format: typeof CURRENT_FORMAT;
  readonly environment: string;
  readonly serial: number;
  readonly state: string;
  readonly sha256: string;
  readonly publishedAt: string;
  readonly keyId: string;
  readonly alg: 'HS256';
  readonly signature: string;
}

/** The object keys of an environment's state folder, under the build store's prefix. */
export function stateKeys(environment: string) {
  const folder = `${STATE_FOLDER}/${environment}`;
  return {
    folder,
    current: `${folder}/current.json`,
    /** `sha256Hex`: of the state's bytes; the name keeps its first 16 digits. */
    state: (serial: number, sha256Hex: string) => `${folder}/${stateName(serial, sha256Hex)}`,
  };
}

export function stateName(serial: number, sha256Hex: string): string {
  return `states/${String(serial).padStart(10, '0')}-${sha256Hex.slice(0, 16)}.json`;
}

/** JSON with every object's keys sorted and no spaces: one text per state, so one hash. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The state object's bytes (as text) for a state; checks it first (throws what is wrong). */
export function serializeState(state: ReleaseState): string {
  const problem = stateProblem(state);
  if (problem) throw new Error(`Not a release state: ${problem}.`);
  return canonicalJson(state);
}

/** Keeps, of a build's recorded integrity, the files a page names. */
export function pageIntegrityOf(files: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(files ?? {}).filter(([path]) => isPageLoaded(path)));
}

/** What the signature covers, in this order: every field of `current` but the signature. */
export function currentPayload(current: Omit<ReleaseCurrent, 'signature'>): string {
  return [
    current.format,
    current.alg,
    current.keyId,
    current.environment,
    String(current.serial),
    current.state,
    current.sha256,
    current.publishedAt,
  ].join('|');
}

/** Why `value` is not a well-formed state, or null. Strict: a composer refuses it whole. */
export function stateProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not an object';
  if (value.format !== STATE_FORMAT) return `format is not ${STATE_FORMAT}`;
  if (typeof value.environment !== 'string' || !ENVIRONMENT_PATTERN.test(value.environment))
    return 'environment malformed';
  if (!isSerial(value.serial)) return 'serial malformed';
  if (typeof value.createdAt !== 'string' || Number.isNaN(Date.parse(value.createdAt))) return 'createdAt malformed';
  if (!isRecord(value.remotes)) return 'remotes malformed';
  const remotes = Object.entries(value.remotes);
  if (remotes.length > MAX_PAGE_BUILDS) return `more than ${MAX_PAGE_BUILDS} remotes`;
  for (const [remote, entry] of remotes) {
    const problem = remoteProblem(entry);
    if (!REMOTE_NAME_PATTERN.test(remote)) return `remote name "${remote}" malformed`;
    if (problem) return `${remote}: ${problem}`;
  }
  return null;
}

function remoteProblem(entry: unknown): string | null {
  if (!isRecord(entry)) return 'not an object';
  const { live, canary, canaryPercent, revision, integrity } = entry;
  if (typeof live !== 'string' || !BUILD_ID_PATTERN.test(live)) return 'live build malformed';
  if (canary !== null && (typeof canary !== 'string' || !BUILD_ID_PATTERN.test(canary)))
    return 'canary build malformed';
  if (typeof canaryPercent !== 'number' || !Number.isInteger(canaryPercent) || canaryPercent < 0 || canaryPercent > 100)
    return 'canaryPercent malformed';
  if (canary === null && canaryPercent !== 0) return 'a share without a canary';
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 0) return 'revision malformed';
  if (!isRecord(integrity)) return 'integrity malformed';
  const builds = Object.keys(integrity);
  const expected = canary === null ? [live] : [live, canary];
  if (builds.length !== new Set(expected).size || !expected.every((build) => builds.includes(build)))
    return 'integrity is not of its live and canary builds';
  for (const build of builds) {
    const files = integrity[build];
    if (!isRecord(files)) return `integrity of ${build} malformed`;
    for (const [path, sri] of Object.entries(files))
      if (!isPageLoaded(path) || typeof sri !== 'string' || !SRI_PATTERN.test(sri))
        return `integrity of ${build}/${path} malformed`;
  }
  return null;
}

/** Why `value` is not a well-formed current object, or null (its signature is the verifier's to check). */
export function currentProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not an object';
  if (value.format !== CURRENT_FORMAT) return `format is not ${CURRENT_FORMAT}`;
  if (value.alg !== 'HS256') return 'alg is not HS256';
  if (typeof value.environment !== 'string' || !ENVIRONMENT_PATTERN.test(value.environment))
    return 'environment malformed';
  if (!isSerial(value.serial)) return 'serial malformed';
  if (typeof value.state !== 'string' || !STATE_NAME_PATTERN.test(value.state)) return 'state name malformed';
  if (typeof value.sha256 !== 'string' || !SHA256_HEX.test(value.sha256)) return 'sha256 malformed';
  if (!value.state.endsWith(`-${value.sha256.slice(0, 16)}.json`)) return 'state name and sha256 differ';
  if (!value.state.startsWith(`states/${String(value.serial).padStart(10, '0')}-`))
    return 'state name and serial differ';
  if (typeof value.publishedAt !== 'string' || Number.isNaN(Date.parse(value.publishedAt)))
    return 'publishedAt malformed';
  if (typeof value.keyId !== 'string' || !KEY_ID_PATTERN.test(value.keyId)) return 'keyId malformed';
  if (typeof value.signature !== 'string' || !SIGNATURE.test(value.signature)) return 'signature malformed';
  return null;
}

/**
 * What a page of this bucket is composed with: each remote's canary below its share, its live
 * build otherwise, as `Sg-Builds` and the page's integrity pairs (`remote/path=sri`, sorted).
 */
export function selectForBucket(state: ReleaseState, bucket: number): { builds: string; integrity: string } {
  const builds: Record<string, string> = {};
  const pairs: string[] = [];
  for (const remote of Object.keys(state.remotes).sort()) {
    const entry = state.remotes[remote];
    if (!entry) continue;
    const build = entry.canary !== null && bucket < entry.canaryPercent ? entry.canary : entry.live;
    builds[remote] = build;
    const files = entry.integrity[build] ?? {};
    for (const path of Object.keys(files).sort()) pairs.push(`${remote}/${path}=${files[path]}`);
  }
  return { builds: formatPageBuilds(builds), integrity: pairs.join(',') };
}

export interface StateKey {
  readonly id: string;
  readonly secret: string;
}

/**
 * `<id>:<secret>,<id>:<secret>`: the first signs, every one verifies (a rotation adds the new key
 * second, then moves it first, then drops the old one). Throws a message naming what is wrong.
 */
export function parseKeyList(value: string, setting = 'RELEASE_STATE_KEYS'): StateKey[] {
  const keys = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.indexOf(':');
      const id = item.slice(0, at);
      const secret = item.slice(at + 1);
      if (at < 1 || !KEY_ID_PATTERN.test(id))
        throw new Error(
          `${setting}: "${id || item.slice(0, 8)}…" is not "<id>:<secret>" with an id of 1–8 letters or digits.`,
        );
      if (secret.length < MIN_KEY_LENGTH)
        throw new Error(`${setting}: the secret of key "${id}" has fewer than ${MIN_KEY_LENGTH} characters.`);
      return { id, secret };
    });
  if (keys.length === 0) throw new Error(`${setting}: no key.`);
  const ids = keys.map((key) => key.id);
  if (new Set(ids).size !== ids.length) throw new Error(`${setting}: a key id is listed twice.`);
  return keys;
}

/**
 * HMAC-SHA256 of `data` under `secret`, base64url. The holder's own: node:crypto in the API and
 * the Node composer, njs's crypto in nginx (this module runs anywhere, so it imports none).
 */
export type HmacBase64url = (secret: string, data: string) => string;

const LOCAL_KEY_LABEL = 'special-gift release state key v1';

/**
 * Without RELEASE_STATE_KEYS (`npm run up`, the suite): one key, id `local`, derived from the
 * operator token, so the API and the hosts that share the token agree on it.
 */
export function localStateKey(operatorToken: string, hmac: HmacBase64url): StateKey {
  return { id: 'local', secret: hmac(operatorToken, LOCAL_KEY_LABEL) };
}

/**
 * The current object naming a state, signed with `key` (the API's publisher; the composers' tests).
 * `sha256Hex`: of the state's bytes; `publishedAt`: an ISO 8601 time.
 */
export function signCurrent(
  environment: string,
  serial: number,
  sha256Hex: string,
  publishedAt: string,
  key: StateKey,
  hmac: HmacBase64url,
): ReleaseCurrent {
  const unsigned = {
    format: CURRENT_FORMAT,
    alg: 'HS256',
    keyId: key.id,
    environment,
    serial,
    state: stateName(serial, sha256Hex),
    sha256: sha256Hex,
    publishedAt,
  } as const;
  return { ...unsigned, signature: hmac(key.secret, currentPayload(unsigned)) };
}

/** The key among `trusted` whose signature `current` carries, or undefined (compared in constant time). */
export function signingKey(
  current: ReleaseCurrent,
  trusted: readonly StateKey[],
  hmac: HmacBase64url,
): StateKey | undefined {
  const key = trusted.find((candidate) => candidate.id === current.keyId);
  return key && sameText(hmac(key.secret, currentPayload(current)), current.signature) ? key : undefined;
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSerial(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SERIAL;
}
