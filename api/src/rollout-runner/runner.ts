// The rollout runner (docs/rollouts.md, "The runner"): every tick, the replica holding the lease
// returns lapsed gate claims to pending and takes each due rollout one step. One rollout's error is
// logged and that rollout is tried again at the next tick; a database that is briefly down fails
// the whole tick, which is tried again at the next.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/database';
import type { Logger } from '../http/logger';
import type { RolloutRuleParameters } from '../rollouts';
import { expireClaims } from './gate-store';
import { fetchJson as realFetchJson, type FetchJson } from './host-contract';
import { acquireLease, leaseName, releaseLease, type Lease } from './lease';
import { dueRollouts, updateRollout } from './rollout-store';
import type { RolloutRunnerSettings } from './settings';
import { stepRollout } from './step';

/** Rollouts taken per tick: the rest are due at the next. */
const DUE_PER_TICK = 20;

export interface RolloutRunnerOptions {
  readonly db: Database;
  readonly environment: string;
  readonly rule: RolloutRuleParameters;
  readonly settings: RolloutRunnerSettings;
  readonly log: Logger;
  /** The clock every comparison uses (tests drive it). */
  readonly clock?: () => Date;
  /** How the host's build-info.json is read (tests serve their own). */
  readonly fetchJson?: FetchJson;
  /** After a committed pointer move: publish the release state (main.ts: the StatePublisher). */
  readonly afterPointerChange?: (stateSerial: number) => Promise<unknown>;
  /** This runner's name in the lease; unique per process by default. */
  readonly holder?: string;
}

export interface RolloutRunner {
  /** Ticks every `tickSeconds` until stopped. */
  start(): void;
  /** Stops ticking, waits for a tick under way, and lets the lease lapse at once for another replica. */
  stop(): Promise<void>;
  /** One tick: the lease, then the due rollouts. Resolves with whether this runner led. */
  tick(): Promise<boolean>;
  /** The lease this runner last held. */
  readonly lease: Lease | null;
}

export function createRolloutRunner(options: RolloutRunnerOptions): RolloutRunner {
  const { db, environment, settings, log } = options;
  const clock = options.clock ?? (() => new Date());
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const ctx = {
    db,
    environment,
    rule: options.rule,
    settings,
    fetchJson: options.fetchJson ?? realFetchJson,
    afterPointerChange: options.afterPointerChange ?? (() => Promise.resolve()),
    log,
  };
  let lease: Lease | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | null = null;
  let failing = false;

  async function tickOnce(): Promise<boolean> {
    const now = clock();
    lease = await acquireLease(db, {
      name: leaseName(environment),
      holder,
      ttlSeconds: settings.leaseSeconds,
      now,
      atOnce: db.engine === 'pglite',
    });
    if (lease === null) return false;
    await expireClaims(db, environment, now);
    for (const row of await dueRollouts(db, environment, now, DUE_PER_TICK)) {
      try {
        await stepRollout(ctx, row, lease, now);
      } catch (error) {
        log({
          level: 'error',
          msg: 'rollout step failed; tried again at the next tick',
          rollout: row.id,
          error: String(error),
        });
        const later = new Date(now.getTime() + settings.tickSeconds * 1000).toISOString();
        await updateRollout(db, row.id, row.version, { next_check_at: later }, { bump: false }).catch(() => false);
      }
    }
    return true;
  }

  const tick = async (): Promise<boolean> => {
    if (running) return running;
    running = tickOnce()
      .then((led) => {
        if (failing) log({ msg: 'rollout runner ticks again' });
        failing = false;
        return led;
      })
      .catch((error: unknown) => {
        // Once per outage, not once per tick.
        if (!failing) log({ level: 'error', msg: 'rollout runner tick failed', error: String(error) });
        failing = true;
        return false;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    start() {
      if (!settings.enabled || timer) return;
      timer = setInterval(() => void tick(), settings.tickSeconds * 1000);
      timer.unref();
      void tick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
      if (lease) await releaseLease(db, lease, clock()).catch(() => undefined);
    },
    tick,
    get lease() {
      return lease;
    },
  };
}
