import type { ReleaseStateStatus } from '@special-gift/shared/api';
import { createHash } from 'node:crypto';
import {
  pageIntegrityOf,
  serializeState,
  signCurrent,
  STATE_FORMAT,
  stateKeys,
  type RemoteState,
  type StateKey,
} from '@special-gift/shared/release-state';
import type { Database, Queryable } from '../db/database';
import { toIsoTimestamp } from '../db/timestamp';
import { sign } from '../http/signing';
import type { StateStore } from './state-store';

/**
 * The release state's writer side (docs/releases.md, "Release state"). Every pointer change records
 * the environment's next state in the same transaction (`recordReleaseState`): the pointer and the
 * state it produces commit together, so the database stays the one truth. Publishing writes it to
 * the build store afterwards (`publishLatest`), from the request that made the change and, if the
 * store refused, from every replica's reconciler until it is written.
 */

/** Records the environment's next state from its pointers as they are in `tx`; returns its serial. */
export async function recordReleaseState(tx: Queryable, environment: string, now: Date): Promise<number> {
  // The head's row lock orders concurrent changes to one environment's remotes: serials follow
  // the commits, and each state holds every change committed before it.
  const head = await tx.query<{ serial: string | number }>(
    `INSERT INTO release_state_heads (environment, serial) VALUES ($1, 1)
     ON CONFLICT (environment) DO UPDATE SET serial = release_state_heads.serial + 1
     RETURNING serial`,
    [environment],
  );
  const serial = Number(head.rows[0]?.serial);
  const rows = await tx.query<{
    remote: string;
    live: string;
    canary: string | null;
    canary_percent: number;
    revision: number;
    live_integrity: Record<string, string> | null;
    canary_integrity: Record<string, string> | null;
  }>(
    `SELECT p.remote, p.live_build AS live, p.canary_build AS canary, p.canary_percent, p.revision,
            live.integrity AS live_integrity, canary.integrity AS canary_integrity
       FROM release_pointers p
       JOIN release_builds live ON live.remote = p.remote AND live.build_id = p.live_build
       LEFT JOIN release_builds canary ON canary.remote = p.remote AND canary.build_id = p.canary_build
      WHERE p.environment = $1`,
    [environment],
  );
  const remotes: Record<string, RemoteState> = {};
  for (const row of rows.rows) {
    const integrity: Record<string, Record<string, string>> = { [row.live]: pageIntegrityOf(row.live_integrity) };
    if (row.canary !== null) integrity[row.canary] = pageIntegrityOf(row.canary_integrity);
    remotes[row.remote] = {
      live: row.live,
      canary: row.canary,
      canaryPercent: Number(row.canary_percent),
      revision: Number(row.revision),
      integrity,
    };
  }
  const body = serializeState({ format: STATE_FORMAT, environment, serial, createdAt: now.toISOString(), remotes });
  await tx.query('INSERT INTO release_states (environment, serial, body, sha256) VALUES ($1, $2, $3, $4)', [
    environment,
    serial,
    body,
    sha256Hex(body),
  ]);
  return serial;
}

export type StateStatus = ReleaseStateStatus;

export async function readStateStatus(db: Queryable, environment: string): Promise<StateStatus> {
  const result = await db.query<{
    serial: string | number;
    published_serial: string | number;
    published_key_id: string | null;
    published_at: unknown;
    last_error: string | null;
    last_error_at: unknown;
    drift_reason: string | null;
    drift_at: unknown;
  }>(
    `SELECT serial, published_serial, published_key_id, published_at, last_error, last_error_at, drift_reason, drift_at
       FROM release_state_heads WHERE environment = $1`,
    [environment],
  );
  const row = result.rows[0];
  if (!row)
    return { serial: 0, publishedSerial: 0, publishedKeyId: null, publishedAt: null, lastError: null, drift: null };
  return {
    serial: Number(row.serial),
    publishedSerial: Number(row.published_serial),
    publishedKeyId: row.published_key_id,
    publishedAt: row.published_at === null ? null : toIsoTimestamp(row.published_at),
    lastError: row.last_error === null ? null : { message: row.last_error, at: toIsoTimestamp(row.last_error_at) },
    drift: row.drift_reason === null ? null : { reason: row.drift_reason, at: toIsoTimestamp(row.drift_at) },
  };
}

export interface PublishOptions {
  readonly db: Database;
  readonly environment: string;
  readonly store: StateStore;
  /** The first signs (`RELEASE_STATE_KEYS`). */
  readonly keys: readonly StateKey[];
  readonly now: () => Date;
}

/**
 * Writes the latest recorded state to the store, then `current.json` naming it, unless the store
 * already has it under the signing key. The head's row is locked meanwhile, so publishers on any
 * replica take turns and `current.json` never goes back to an older serial (s3rver honours no
 * conditional write, so the order cannot come from the store). A retry of the transaction writes
 * the same bytes again: harmless. A store error is recorded on the head and rethrown.
 */
export async function publishLatest({ db, environment, store, keys, now }: PublishOptions): Promise<StateStatus> {
  const [key] = keys;
  if (!key) throw new Error('No release state key to sign with.');
  // Every replica's reconciler calls this every 2 s: when the store has the latest state already,
  // a plain read answers, with no transaction and no row lock.
  let before = await readStateStatus(db, environment);
  if (before.serial === 0) {
    if (!(await recordFirstState(db, environment, now()))) return before;
    before = await readStateStatus(db, environment);
  }
  if (before.publishedSerial === before.serial && before.publishedKeyId === key.id) return before;
  try {
    await db.transaction(async (tx) => {
      const head = await tx.query<{
        serial: string | number;
        published_serial: string | number;
        published_key_id: string | null;
      }>(
        'SELECT serial, published_serial, published_key_id FROM release_state_heads WHERE environment = $1 FOR UPDATE',
        [environment],
      );
      const row = head.rows[0];
      if (!row) return;
      const serial = Number(row.serial);
      if (Number(row.published_serial) === serial && row.published_key_id === key.id) return;
      const state = await tx.query<{ body: string; sha256: string }>(
        'SELECT body, sha256 FROM release_states WHERE environment = $1 AND serial = $2',
        [environment, serial],
      );
      const { body, sha256 } = state.rows[0] ?? {};
      if (body === undefined || sha256 === undefined) throw new Error(`state ${serial} of ${environment} is missing`);
      const keys = stateKeys(environment);
      await store.put(keys.state(serial, sha256), body, { immutable: true });
      const publishedAt = now();
      await store.put(
        keys.current,
        JSON.stringify(signCurrent(environment, serial, sha256, publishedAt.toISOString(), key, sign)),
        {
          immutable: false,
        },
      );
      await tx.query(
        `UPDATE release_state_heads
            SET published_serial = $2, published_key_id = $3, published_at = $4, last_error = NULL, last_error_at = NULL
          WHERE environment = $1`,
        [environment, serial, key.id, publishedAt.toISOString()],
      );
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db
      .query('UPDATE release_state_heads SET last_error = $2, last_error_at = $3 WHERE environment = $1', [
        environment,
        message.slice(0, 500),
        now().toISOString(),
      ])
      .catch(() => undefined); // the database is down too: the reconciler tries again
    throw error;
  }
  return readStateStatus(db, environment);
}

/**
 * An environment released before release states existed (migration 11) has pointers and no state:
 * its first state is recorded from them, so that the composers that read the store serve what was
 * released rather than every remote's image build. A plain read first: with no pointers, as in a
 * new environment, no transaction is opened. Two replicas doing it at once record two equal states.
 */
async function recordFirstState(db: Database, environment: string, now: Date): Promise<boolean> {
  const pointers = await db.query('SELECT 1 FROM release_pointers WHERE environment = $1 LIMIT 1', [environment]);
  if (pointers.rows.length === 0) return false;
  return db.transaction(async (tx) => {
    const head = await tx.query('SELECT 1 FROM release_state_heads WHERE environment = $1', [environment]);
    if (head.rows.length > 0) return true;
    await recordReleaseState(tx, environment, now);
    return true;
  });
}

/**
 * Reads back what the store holds for the published state and compares it, byte for byte, with
 * what the publisher wrote: `current.json` (re-signed here from the head's serial, time and key)
 * and the state object it names. A tampered, deleted or replaced object is a drift: it is recorded
 * on the head (`drift_reason`, `drift_at`) and the state is marked unpublished, so the next publish
 * writes both again. Returns the drift's reason, or null: nothing wrong, nothing published yet, a
 * publish pending, a key being rotated (the publisher re-signs anyway), or the store unreadable (a
 * store that is down is not a drift; the composers keep their last good state).
 */
export async function checkDrift({ db, environment, store, keys, now }: PublishOptions): Promise<string | null> {
  const head = await db.query<{
    published_serial: string | number;
    published_key_id: string | null;
    published_at: unknown;
  }>(
    `SELECT published_serial, published_key_id, published_at FROM release_state_heads
      WHERE environment = $1 AND published_serial = serial AND published_serial > 0`,
    [environment],
  );
  const row = head.rows[0];
  const key = keys.find((candidate) => candidate.id === row?.published_key_id);
  if (!row || !key || row.published_at === null) return null;
  const serial = Number(row.published_serial);
  const publishedAt = toIsoTimestamp(row.published_at);
  const state = await db.query<{ body: string; sha256: string }>(
    'SELECT body, sha256 FROM release_states WHERE environment = $1 AND serial = $2',
    [environment, serial],
  );
  const { body, sha256 } = state.rows[0] ?? {};
  if (body === undefined || sha256 === undefined) return null;
  const names = stateKeys(environment);
  let current: string | null;
  let stored: string | null;
  try {
    [current, stored] = await Promise.all([store.get(names.current), store.get(names.state(serial, sha256))]);
  } catch {
    return null;
  }
  const reason =
    current === null
      ? 'current.json is missing'
      : current !== JSON.stringify(signCurrent(environment, serial, sha256, publishedAt, key, sign))
        ? 'current.json is not the one written'
        : stored === null
          ? `state ${serial} is missing`
          : stored !== body
            ? `state ${serial} is not the one written`
            : null;
  if (reason === null) return null;
  // Only if nothing was published meanwhile (another replica's newer current.json is not a drift).
  const marked = await db.query<{ environment: string }>(
    `UPDATE release_state_heads SET published_serial = 0, drift_reason = $4, drift_at = $5
      WHERE environment = $1 AND published_serial = $2 AND published_at = $3
      RETURNING environment`,
    [environment, serial, publishedAt, reason, now().toISOString()],
  );
  return marked.rows.length > 0 ? reason : null;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
