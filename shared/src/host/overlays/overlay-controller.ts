import { isCancelRole, type OverlayButton, type OverlayResult, type OverlayRole } from '../../contract/overlays';
import type { DialogEntry, OverlayController, OverlayEntry } from './overlay-types';

const DEFAULT_TOAST_DURATION = 4000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type EntrySpec = DistributiveOmit<OverlayEntry, 'id' | 'dismiss'>;

interface Pending {
  readonly resolve: (result: OverlayResult) => void;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

export function createOverlayController(): OverlayController {
  let entries: readonly OverlayEntry[] = [];
  const pending = new Map<string, Pending>();
  const listeners = new Set<() => void>();
  let nextId = 0;

  const emit = () => {
    for (const listener of [...listeners]) listener();
  };

  function present(spec: EntrySpec): Promise<OverlayResult> {
    nextId += 1;
    const id = `sg-overlay-${nextId}`;
    return new Promise<OverlayResult>((resolve) => {
      const entry: OverlayEntry = { ...spec, id, dismiss: (data, role) => dismiss(id, data, role) };
      pending.set(id, { resolve, timer: startToastTimer(entry) });
      entries = [...entries, entry];
      emit();
    });
  }

  function startToastTimer(entry: OverlayEntry): ReturnType<typeof setTimeout> | undefined {
    if (entry.kind !== 'toast') return undefined;
    const duration = entry.options.duration ?? DEFAULT_TOAST_DURATION;
    if (!Number.isFinite(duration) || duration <= 0) return undefined;
    return setTimeout(() => dismiss(entry.id, undefined, 'timeout'), duration);
  }

  function dismiss(id: string, data?: unknown, role?: OverlayRole): boolean {
    const entry = entries.find((candidate) => candidate.id === id);
    const waiting = pending.get(id);
    if (!entry || !waiting) return false;
    pending.delete(id);
    clearTimeout(waiting.timer);
    entries = entries.filter((candidate) => candidate !== entry);
    // Ionic: the cancel button's handler runs on every cancel/backdrop dismissal (its own click, Escape, backdrop), once.
    if (isCancelRole(role)) runCancelHandler(entry);
    emit();
    waiting.resolve({ role, data });
    return true;
  }

  function dismissTop(role: OverlayRole = 'backdrop'): boolean {
    const top = entries.findLast((entry): entry is DialogEntry => entry.kind !== 'toast');
    if (!top) return false;
    if (role === 'backdrop' && top.options.backdropDismiss === false) return false;
    return dismiss(top.id, undefined, role);
  }

  return {
    alert: (options) => present({ kind: 'alert', options }),
    actionSheet: (options) => present({ kind: 'actionSheet', options }),
    modal: (options) => present({ kind: 'modal', options }),
    popover: (options) => present({ kind: 'popover', options }),
    toast: (options) => present({ kind: 'toast', options }),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => entries,
    dismissTop,
    dismiss,
  };
}

function buttonsOf(entry: OverlayEntry): readonly OverlayButton[] {
  switch (entry.kind) {
    case 'alert':
    case 'actionSheet':
    case 'toast':
      return entry.options.buttons ?? [];
    default:
      return [];
  }
}

function runCancelHandler(entry: OverlayEntry): void {
  const handler = buttonsOf(entry).find((button) => button.role === 'cancel')?.handler;
  if (!handler) return;
  // Its result cannot veto a cancel; errors are reported, not thrown into whoever dismissed.
  try {
    Promise.resolve(handler()).catch(reportHandlerError);
  } catch (error) {
    reportHandlerError(error);
  }
}

export function reportHandlerError(error: unknown): void {
  console.error('Overlay button handler failed:', error);
}
