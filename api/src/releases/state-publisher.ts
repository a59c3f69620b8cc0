import type { ReleaseStateAnswer } from '@special-gift/shared/api';
import type { StateKey } from '@special-gift/shared/release-state';
import type { Database } from '../db/database';
import { checkDrift, publishLatest, readStateStatus, type StateStatus } from './release-state';
import type { StateStore } from './state-store';

/** How often each replica checks that the store has the latest state (and writes it if not). */
export const RECONCILE_EVERY_MS = 2_000;
/** How often each replica reads the store back to find a tampered or deleted state (checkDrift). */
export const DRIFT_CHECK_EVERY_MS = 30_000;

export interface StatePublisherOptions {
  readonly db: Database;
  readonly environment: string;
  /** Unset (`RELEASE_STATE_STORE`): states are recorded, never written (`npm run serve` without a store). */
  readonly store: StateStore | undefined;
  readonly keys: readonly StateKey[];
  readonly now?: () => Date;
  readonly log?: (entry: Record<string, unknown>) => void;
  readonly reconcileEveryMs?: number;
  readonly driftCheckEveryMs?: number;
}

/**
 * Writes the release state to the build store: at once after each pointer change, and every
 * {@link RECONCILE_EVERY_MS} on each replica, so a change the store refused (down, slow, a replica
 * that stopped mid-write) is written as soon as it can be. One publish at a time per process; the
 * database row lock orders the replicas.
 */
export class StatePublisher {
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private driftTimer: NodeJS.Timeout | undefined;
  private lastLoggedError: string | undefined;

  constructor(private readonly options: StatePublisherOptions) {}

  get location(): string | undefined {
    return this.options.store?.location;
  }

  /** What a pointer change's answer says of its state. Publishes the latest state; never throws (a refusal is in the answer and in the head's row). */
  async afterChange(serial: number): Promise<ReleaseStateAnswer> {
    const outcome = await this.publish();
    const status = outcome.status ?? (await readStateStatus(this.options.db, this.options.environment));
    return {
      serial,
      publishedSerial: status.publishedSerial,
      published: status.publishedSerial >= serial,
      store: this.options.store?.location ?? null,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      ...(this.options.store === undefined ? { error: 'no release state store is set (RELEASE_STATE_STORE)' } : {}),
    };
  }

  start(): void {
    if (this.options.store === undefined || this.timer) return;
    this.timer = setInterval(() => void this.publish(), this.options.reconcileEveryMs ?? RECONCILE_EVERY_MS).unref();
    this.driftTimer = setInterval(
      () => void this.checkDrift(),
      this.options.driftCheckEveryMs ?? DRIFT_CHECK_EVERY_MS,
    ).unref();
  }

  /** Stops the reconciler and waits for a publish under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.driftTimer);
    this.timer = undefined;
    this.driftTimer = undefined;
    await this.running.catch(() => undefined);
  }

  /**
   * Reads the store back; on a drift, logs it and writes the state again at once. In turn with
   * publishes (one at a time per process); never throws (a database or store that cannot be read
   * is tried again at the next round).
   */
  checkDrift(): Promise<void> {
    const { db, environment, store, keys, now = () => new Date(), log } = this.options;
    if (store === undefined) return Promise.resolve();
    const checked = this.running.catch(() => undefined).then(() => checkDrift({ db, environment, store, keys, now }));
    this.running = checked;
    return checked.then(
      async (reason) => {
        if (reason === null) return;
        log?.({ level: 'error', msg: 'release state drift', store: store.location, environment, reason });
        await this.publish();
      },
      () => undefined,
    );
  }

  private publish(): Promise<{ status?: StateStatus; error?: string }> {
    const { db, environment, store, keys, now = () => new Date(), log } = this.options;
    if (store === undefined) return Promise.resolve({});
    const next = this.running
      .catch(() => undefined)
      .then(() => publishLatest({ db, environment, store, keys, now }))
      .then(
        (status) => {
          if (this.lastLoggedError !== undefined)
            log?.({ msg: 'release state written again', serial: status.publishedSerial });
          this.lastLoggedError = undefined;
          return { status };
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          // Logged once per distinct error, not every 2 s while the store is down.
          if (message !== this.lastLoggedError)
            log?.({ level: 'error', msg: 'release state not written', store: store.location, error: message });
          this.lastLoggedError = message;
          return { error: message };
        },
      );
    this.running = next;
    return next;
  }
}
