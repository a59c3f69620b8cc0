import type {
  ActionSheetOptions,
  AlertOptions,
  ModalOptions,
  OverlayRole,
  Overlays,
  PopoverOptions,
  ToastOptions,
} from '../../contract/overlays';

/** Closes one overlay; returns false when it was already gone. */
export type DismissOverlay = (data?: unknown, role?: OverlayRole) => boolean;

interface EntryBase {
  /** Unique within its controller; also the React key. */
  readonly id: string;
  /** Bound to this entry, stable for its lifetime (safe to hand to `render`). */
  readonly dismiss: DismissOverlay;
}

/** One presented overlay, in presentation order within `getSnapshot()`. */
export type OverlayEntry =
  | (EntryBase & { readonly kind: 'alert'; readonly options: AlertOptions })
  | (EntryBase & { readonly kind: 'actionSheet'; readonly options: ActionSheetOptions })
  | (EntryBase & { readonly kind: 'modal'; readonly options: ModalOptions })
  | (EntryBase & { readonly kind: 'popover'; readonly options: PopoverOptions })
  | (EntryBase & { readonly kind: 'toast'; readonly options: ToastOptions });

export type OverlayKind = OverlayEntry['kind'];
export type DialogEntry = Exclude<OverlayEntry, { kind: 'toast' }>;
export type ToastEntry = Extract<OverlayEntry, { kind: 'toast' }>;

/** Translated default button texts, passed in by the host from i18n. */
export interface OverlayLabels {
  readonly ok: string;
  readonly cancel: string;
  readonly close: string;
}

/** The `Overlays` contract plus the store the host renders from. Plain TS, so the promise API works from anywhere. */
export interface OverlayController extends Overlays {
  /** Called after every change of the stack; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The current stack; the same array until it changes (for `useSyncExternalStore`). */
  getSnapshot(): readonly OverlayEntry[];
  /**
   * Dismisses the topmost alert / action sheet / modal / popover (never a toast).
   * With role `backdrop` (the default, used by Escape and backdrop clicks) it honours `backdropDismiss`;
   * other roles always dismiss. Returns whether an overlay was dismissed.
   */
  dismissTop(role?: OverlayRole): boolean;
  /** Dismisses one overlay by id; returns false when it is not presented. */
  dismiss(id: string, data?: unknown, role?: OverlayRole): boolean;
}
