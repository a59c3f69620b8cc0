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
}

export function isRemoteScreenModule(value: unknown): value is RemoteScreenModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RemoteScreenModule>;
  return (
    typeof candidate.default === 'function' &&
    typeof candidate.meta?.contractVersion === 'number' &&
    typeof candidate.meta.namespace === 'string'
  );
}
