// Delivers rollout webhooks (docs/rollouts.md, "Webhooks"): each tick turns new timeline events
// into deliveries, then posts the due ones, signed, with a 10 s timeout and no redirect followed.
// Every replica pumps: claims are row leases (SKIP LOCKED), so none posts what another holds.
import type { Database } from '../db/database';
import { toIsoTimestamp } from '../db/timestamp';
import type { Logger } from '../http/logger';
import { RETRY_DELAYS_SECONDS, signWebhook, WEBHOOK_TYPES, webhookSecret, webhookUrlProblem } from './webhook-signing';
import {
  claimDue,
  deleteWebhook,
  enqueueNewEvents,
  readWebhook,
  recordAttempt,
  type Delivery,
  type EventRow,
} from './webhook-store';
import type { RolloutEventKind } from '@special-gift/shared/api';

export interface WebhookPumpOptions {
  readonly db: Database;
  readonly environment: string;
  /** The key secrets are derived from (ROLLOUT_WEBHOOK_KEY, else the operator token). */
  readonly key: string;
  /** ROLLOUT_WEBHOOK_HOSTS, or null: https to public names and addresses only. */
  readonly allowedHosts: readonly string[] | null;
  readonly everyMs: number;
  readonly log: Logger;
  readonly clock?: () => Date;
}

/** How long a claimed delivery is held for its replica: beyond the post's 10 s timeout. */
const CLAIM_SECONDS = 30;
const POST_TIMEOUT_MS = 10_000;
const PER_TICK = 20;

export function webhookBody(environment: string, row: EventRow): string {
  return JSON.stringify({
    type: WEBHOOK_TYPES[row.kind as RolloutEventKind] ?? `rollout.${row.kind}`,
    id: `msg_${row.rollout_id}_${row.seq}`,
    environment,
    remote: row.remote,
    rollout: {
      id: row.rollout_id,
      buildId: row.build_id,
      baselineBuild: row.baseline_build,
      state: row.state,
      stepIndex: row.rollout_step,
    },
    event: {
      seq: row.seq,
      kind: row.kind,
      at: toIsoTimestamp(row.at),
      stepIndex: row.step_index,
      percent: row.percent,
      actor: row.actor,
      reason: row.reason,
    },
  });
}

export class WebhookPump {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private lastError = '';

  constructor(private readonly options: WebhookPumpOptions) {}

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.tick().catch((error: unknown) => {
        // Logged once per distinct error (a database outage would log every tick otherwise).
        const message = error instanceof Error ? error.message : String(error);
        if (message !== this.lastError)
          this.options.log({ level: 'warn', msg: 'rollout webhooks: tick failed', error: message });
        this.lastError = message;
      });
    }, this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: new events become deliveries, then due deliveries are posted. What it did. */
  async tick(): Promise<{ enqueued: number; attempted: number }> {
    const { db, environment } = this.options;
    const enqueued = await enqueueNewEvents(db, environment, (row) => webhookBody(environment, row), this.now());
    const due = await claimDue(db, environment, this.now(), CLAIM_SECONDS, PER_TICK);
    for (const delivery of due) await this.deliver(delivery);
    this.lastError = '';
    return { enqueued, attempted: due.length };
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { db, environment, key, allowedHosts } = this.options;
    const setting = await readWebhook(db, environment, delivery.remote);
    const problem =
      setting === null ? 'webhook removed' : webhookUrlProblem(delivery.url, allowedHosts) && 'URL no longer allowed';
    if (setting === null || problem) {
      await recordAttempt(db, delivery.id, {
        delivered: false,
        status: null,
        error: problem,
        retryAt: null,
        now: this.now(),
      });
      return;
    }
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const secret = webhookSecret(key, environment, delivery.remote, setting.generation);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'special-gift-rollouts/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, delivery.id, timestamp, delivery.body),
        },
        body: delivery.body,
      });
      status = response.status;
      await response.body?.cancel();
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const delivered = status !== null && status >= 200 && status < 300;
    if (status === 410) {
      // The receiver says it is gone for good: stop sending there (an admin sets a new URL).
      await deleteWebhook(db, environment, delivery.remote);
      this.options.log({ level: 'warn', msg: 'rollout webhooks: 410, webhook removed', remote: delivery.remote });
    }
    const delay = RETRY_DELAYS_SECONDS[delivery.attempts];
    const retryAt =
      delivered || status === 410 || delay === undefined ? null : new Date(this.now().getTime() + delay * 1000);
    await recordAttempt(db, delivery.id, {
      delivered,
      status,
      error: delivered ? null : (error ?? `HTTP ${status}`),
      retryAt,
      now: this.now(),
    });
  }
}
