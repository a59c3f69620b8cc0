import type {
  AccessToken,
  AuditEntry,
  BuildFootprint,
  Channel,
  CreatedAccessToken,
  RevokedAccessToken,
  PublishedBuild,
  RemoteRolloutPlan,
  RemoteRolloutPlanRequest,
  ReleaseActionRequest,
  ReleaseHistoryEntry,
  ReleaseLock,
  ReleasePointer,
  ReleaseStateAnswer,
  ReleaseStateReport,
  Rollout,
  RolloutControl,
  RolloutControlRequest,
  RolloutDetail,
  RolloutStartRequest,
} from '@special-gift/shared/api';
import { Refusal } from './integrity';

export type Pointer = ReleasePointer;
/** A build as the remote's state lists it. */
export type Build = Omit<PublishedBuild, 'remote'>;
export type HistoryEntry = ReleaseHistoryEntry;
export type ActionRequest = ReleaseActionRequest;

/** A pointer change's answer. `state` is absent from an API older than the release state. */
export interface ActionAnswer {
  readonly pointer: Pointer | null;
  readonly revision: number;
  readonly state?: ReleaseStateAnswer;
}

/** `GET /v1/releases/state`: the latest serial, and the latest the store has. */
export type StateStatus = ReleaseStateReport;

export interface RemoteState {
  readonly pointer: Pointer | null;
  readonly revision: number;
  readonly builds: Build[];
  readonly history: HistoryEntry[];
  /** Set while the pointer is frozen (docs/access.md). */
  readonly lock: ReleaseLock | null;
}

/** Where a change comes from, for the audit trail: `ci` when the environment says CI. */
export const channelFrom = (env: Readonly<Record<string, string | undefined>>): Channel =>
  env.CI && env.CI !== 'false' ? 'ci' : 'cli';

/**
 * The pauses before each further attempt of a call that is safe to repeat, when the API cannot be
 * reached or its proxy answers 502/503/504: an API replica rolling, or the proxy's DNS blinking,
 * must not fail a team's CI job. Some 29 s in all: a stack run once got three 502s within 2 s from
 * the host's proxy, and a CI run four over 12 s (its nginx resolver timing out on the container
 * network's DNS). Bounded: six attempts at most.
 */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1_500, 4_000, 8_000, 15_000];
const RETRYABLE_STATUS = new Set([502, 503, 504]);

export class ReleaseApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
    private readonly channel: Channel = 'cli',
  ) {}

  /**
   * One API call. `repeatable`: the call changes nothing when made twice (reads, registering a
   * build by its content id, purging), so it is retried as RETRY_DELAYS_MS says. A pointer action
   * is not: its compare-and-swap would answer a repeat with a conflict.
   */
  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    { repeatable = false }: { repeatable?: boolean } = {},
  ): Promise<{ status: number; body: T }> {
    const delays = repeatable ? this.retryDelaysMs : [];
    for (let attempt = 0; ; attempt++) {
      const delay = delays[attempt];
      try {
        return await this.callOnce<T>(method, path, body);
      } catch (error) {
        if (!(error instanceof Retryable) || delay === undefined)
          throw error instanceof Retryable ? error.refusal : error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async callOnce<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/$/, '')}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          'sg-channel': this.channel,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new Retryable(
        new Refusal(`the release API at ${this.baseUrl} cannot be reached (${String(error)}); set SG_RELEASE_API`),
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status >= 400) {
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      const refusal = new Refusal(
        error?.message
          ? `${error.message} (${response.status} ${error.code ?? ''})`
          : `HTTP ${response.status} from ${path}`,
      );
      throw RETRYABLE_STATUS.has(response.status) ? new Retryable(refusal) : refusal;
    }
    return { status: response.status, body: parsed as T };
  }

  async registerBuild(
    build: {
      remote: string;
      buildId: string;
      contractMajor: number;
      files: number;
      bytes: number;
      /** The SRI value of each file a browser may load, by path (sri.ts). */
      integrity: Readonly<Record<string, string>>;
    } & Partial<BuildFootprint>,
  ): Promise<{ created: boolean }> {
    const { status } = await this.call('POST', '/releases/builds', build, { repeatable: true });
    return { created: status === 201 };
  }

  async remote(remote: string, limit = 50): Promise<RemoteState> {
    return (
      await this.call<RemoteState>('GET', `/releases/remotes/${remote}?limit=${limit}`, undefined, { repeatable: true })
    ).body;
  }

  async act(remote: string, request: ActionRequest): Promise<ActionAnswer> {
    return (await this.call<ActionAnswer>('POST', `/releases/remotes/${remote}/actions`, request)).body;
  }

  async releaseState(): Promise<StateStatus> {
    return (await this.call<StateStatus>('GET', '/releases/state', undefined, { repeatable: true })).body;
  }

  /**
   * Waits, at most `waitMs`, until the build store has the state a change produced (the API writes
   * it before answering, and when the store refused, again every 2 s): pages are composed from the
   * store, so a change it does not have yet is applied but not served. Resolves at once when the
   * answer says published, or when the API writes no state (its composers ask it).
   */
  async waitUntilServed(
    state: ReleaseStateAnswer | undefined,
    { waitMs, pollMs = 250 }: { waitMs: number; pollMs?: number },
  ): Promise<{ served: true } | { served: false; store: string; serial: number; why: string }> {
    if (state === undefined || state.store === null || state.published) return { served: true };
    const deadline = Date.now() + waitMs;
    let why = state.error ?? 'not written yet';
    for (;;) {
      if (Date.now() >= deadline) return { served: false, store: state.store, serial: state.serial, why };
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
      const status = await this.releaseState();
      if (status.publishedSerial >= state.serial) return { served: true };
      why = status.lastError?.message ?? why;
    }
  }

  async purge(remote: string, buildIds: readonly string[]): Promise<string[]> {
    return (
      await this.call<{ purged: string[] }>(
        'POST',
        `/releases/remotes/${remote}/purge`,
        { buildIds },
        { repeatable: true },
      )
    ).body.purged;
  }

  /** Freezes (`lock`) or unfreezes (`unlock`) the remote's pointer. */
  async setLock(remote: string, change: 'lock' | 'unlock', reason: string): Promise<{ lock: ReleaseLock | null }> {
    return (await this.call<{ lock: ReleaseLock | null }>('POST', `/releases/remotes/${remote}/${change}`, { reason }))
      .body;
  }

  async audit(remote: string, limit = 50): Promise<AuditEntry[]> {
    const query = `/access/audit?remote=${remote}&limit=${limit}`;
    return (await this.call<{ entries: AuditEntry[] }>('GET', query, undefined, { repeatable: true })).body.entries;
  }

  async createToken(request: {
    remote: string;
    role: string;
    name: string;
    expiresInDays: number;
    reason: string;
  }): Promise<CreatedAccessToken> {
    return (await this.call<CreatedAccessToken>('POST', '/access/tokens', request)).body;
  }

  async tokens(remote: string): Promise<AccessToken[]> {
    const path = `/access/tokens?remote=${remote}`;
    return (await this.call<{ tokens: AccessToken[] }>('GET', path, undefined, { repeatable: true })).body.tokens;
  }

  async revokeToken(id: string, reason: string, cascade: boolean): Promise<RevokedAccessToken> {
    return (await this.call<RevokedAccessToken>('POST', `/access/tokens/${id}/revoke`, { reason, cascade })).body;
  }

  /** Starts a rollout (docs/rollouts.md). Not repeated: a second start is refused while the first is under way. */
  async startRollout(request: RolloutStartRequest): Promise<Rollout> {
    return (await this.call<Rollout>('POST', '/rollouts', request)).body;
  }

  /** A remote's rollouts, newest first; `active`: only the one under way (there is at most one). */
  async rollouts(remote: string, { active = false, limit = 20 }: { active?: boolean; limit?: number } = {}) {
    const query = new URLSearchParams({ remote, limit: String(limit), ...(active ? { active: 'true' } : {}) });
    return (
      await this.call<{ rollouts: Rollout[] }>('GET', `/rollouts?${query.toString()}`, undefined, { repeatable: true })
    ).body.rollouts;
  }

  async rollout(id: string): Promise<RolloutDetail> {
    return (await this.call<RolloutDetail>('GET', `/rollouts/${id}`, undefined, { repeatable: true })).body;
  }

  /** The remote's default rollout plan (null when none), its version and the API's built-in plan. */
  async rolloutPlan(remote: string): Promise<RemoteRolloutPlan> {
    return (await this.call<RemoteRolloutPlan>('GET', `/rollouts/plans/${remote}`, undefined, { repeatable: true }))
      .body;
  }

  /** Sets or clears (null) the remote's default plan: a compare-and-swap on its version, so never repeated. */
  async setRolloutPlan(
    remote: string,
    change: Omit<RemoteRolloutPlanRequest, 'plan'> & { readonly plan: RemoteRolloutPlanRequest['plan'] | null },
  ): Promise<RemoteRolloutPlan> {
    const path = `/rollouts/plans/${remote}`;
    if (change.plan === null)
      return (await this.call<RemoteRolloutPlan>('DELETE', `${path}?expectedVersion=${change.expectedVersion}`)).body;
    return (await this.call<RemoteRolloutPlan>('PUT', path, change)).body;
  }

  /** Pause, resume, skip, approve or abort: a compare-and-swap on the rollout's version, so never repeated. */
  async rolloutControl(id: string, control: RolloutControl, request: RolloutControlRequest): Promise<Rollout> {
    return (await this.call<Rollout>('POST', `/rollouts/${id}/${control}`, request)).body;
  }
}

/** A failure worth another attempt (the API unreachable, or its proxy's 502/503/504), carrying what to say if none is left. */
class Retryable extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}
