// What the console's modules share: the tab's storage keys, the screen's data (a View), and the
// few reads of the address and the tab's storage.
import type {
  AccessAction,
  AccessIdentity,
  AuditEntry,
  PublishedBuild,
  ReleaseHistoryEntry,
  ReleaseLock,
  ReleasePointer,
  RemoteRolloutPlan,
  RolloutDetail,
} from '@special-gift/shared/api';
import type { CanaryDecisionAnswer, ReportWindow, TelemetryReport } from '@special-gift/shared/telemetry';

export const TOKEN_KEY = 'special-gift.console-token';
/** The preview this tab started: the API's cookie is HttpOnly, so the page remembers what it asked for. */
export const PREVIEW_KEY = 'special-gift.console-preview';

export interface RemoteState {
  readonly environment: string;
  readonly remote: string;
  readonly pointer: ReleasePointer | null;
  readonly revision: number;
  readonly builds: readonly PublishedBuild[];
  readonly history: readonly ReleaseHistoryEntry[];
  readonly lock: ReleaseLock | null;
}

export interface Preview {
  readonly remote: string;
  readonly buildId: string;
  readonly expiresAt: string;
}

/** What the last action did, or why it was refused. */
export interface Notice {
  readonly text: string;
  readonly refusal: boolean;
}

/** Everything one drawing of the screen shows, and how the screen is drawn again. */
export interface View {
  readonly me: AccessIdentity;
  readonly token: string;
  readonly remote: string;
  readonly window: ReportWindow;
  readonly state: RemoteState;
  readonly audit: readonly AuditEntry[];
  readonly report: TelemetryReport;
  /** The canary decision (GET /v1/telemetry/verdict) when a canary is under way. */
  readonly decision: CanaryDecisionAnswer | null;
  /** The remote's rollout under way, else its last one (docs/rollouts.md); null when it never had one. */
  readonly rollout: RolloutDetail | null;
  /** The remote's default rollout plan (null inside when none) and the API's built-in plan. */
  readonly rolloutPlan: RemoteRolloutPlan;
  /** Reads everything again and draws the screen, with a notice. */
  reload(notice?: Notice): Promise<void>;
  signOut(): void;
  /** A 401 (revoked, expired): forgets the token and shows the sign-in form; false for anything else. */
  signedOutBy(error: unknown): boolean;
}

export const short = (buildId: string | null | undefined) => buildId ?? 'none';
export const can = (view: Pick<View, 'me'>, action: AccessAction) => view.me.actions.includes(action);

export function params(): { remote: string | null; window: ReportWindow } {
  const query = new URLSearchParams(location.search);
  return { remote: query.get('remote'), window: query.get('window') === '1d' ? '1d' : '1h' };
}

export function setParams(remote: string, window: ReportWindow): void {
  history.replaceState(null, '', `?${new URLSearchParams({ remote, window }).toString()}`);
}

export function readPreview(): Preview | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PREVIEW_KEY) ?? 'null') as Preview | null;
    return value && Date.parse(value.expiresAt) > Date.now() ? value : null;
  } catch {
    return null;
  }
}
