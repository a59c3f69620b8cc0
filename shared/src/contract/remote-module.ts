import type { ComponentType } from 'react';

/** What every remote exposes as `./Screen`. */
export interface RemoteScreenModule {
  readonly default: ComponentType;
  readonly meta: RemoteScreenMeta;
}

export interface RemoteScreenMeta {
  /** `CONTRACT_VERSION` the remote was built against. */
  readonly contractVersion: number;
  /** Its i18next namespace; the texts live at `<remote origin>/assets/i18n/{lang}.json`. */
  readonly namespace: string;
  /**
   * The shell's features this screen takes part in, for a host to tell a screen built before one
   * from one built after (absent: none). `kept-sign-up-review`: the sign-up screen puts a kept
   * sign-up the shell's notice handed it (`review`) back in its form, and tells nothing itself
   * when the shell has that notice (`KEPT_SIGN_UP_NOTICE`).
   */
  readonly handles?: readonly ScreenCapability[];
}

/** A literal in each remote's `meta` (never a value read from the host's copy of the contract). */
export type ScreenCapability = 'kept-sign-up-review';

export function isRemoteScreenModule(value: unknown): value is RemoteScreenModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RemoteScreenModule>;
  return (
    typeof candidate.default === 'function' &&
    typeof candidate.meta?.contractVersion === 'number' &&
    typeof candidate.meta.namespace === 'string'
  );
}
