import type { ReactNode } from 'react';

/** Roles an overlay can be dismissed with; `isCancelRole` tells cancel-like ones apart. */
export type OverlayRole = 'cancel' | 'backdrop' | 'destructive' | 'timeout' | 'confirm' | (string & {});

export function isCancelRole(role: OverlayRole | undefined): boolean {
  return role === 'cancel' || role === 'backdrop';
}

export interface OverlayResult<T = unknown> {
  readonly role: OverlayRole | undefined;
  readonly data?: T;
}

export interface OverlayButton<T = unknown> {
  readonly text: string;
  readonly role?: OverlayRole;
  readonly data?: T;
  /** Return `false` to keep the overlay open. */
  readonly handler?: () => boolean | void | Promise<boolean | void>;
}

export interface AlertOptions {
  readonly header: string;
  readonly subHeader?: string;
  readonly message?: string;
  readonly buttons?: readonly OverlayButton[];
  /** Escape / backdrop tap dismiss with role `backdrop`. Default true. */
  readonly backdropDismiss?: boolean;
}

export interface ActionSheetOptions {
  readonly header: string;
  readonly subHeader?: string;
  readonly buttons: readonly OverlayButton[];
  readonly backdropDismiss?: boolean;
}

export interface ModalOptions {
  /** Accessible name of the dialog; also shown as its title. */
  readonly title: string;
  /** The content; receives `dismiss` so it can close itself with a role and data. */
  readonly render: (dismiss: (data?: unknown, role?: OverlayRole) => void) => ReactNode;
  readonly backdropDismiss?: boolean;
  /** The id of an element `render` shows that describes the dialog (what a screen reader says on opening). */
  readonly describedBy?: string;
}

export interface PopoverOptions {
  readonly title: string;
  readonly render: (dismiss: (data?: unknown, role?: OverlayRole) => void) => ReactNode;
  /** The element the popover points at (usually the button that opened it). */
  readonly anchor?: HTMLElement | null;
  readonly backdropDismiss?: boolean;
}

export interface ToastOptions {
  readonly message: string;
  /** Milliseconds before it dismisses itself with role `timeout`; 0 keeps it until dismissed. Default 4000. */
  readonly duration?: number;
  readonly buttons?: readonly OverlayButton[];
}

/** Promise-based overlays: each resolves with what it was dismissed with. */
export interface Overlays {
  alert(options: AlertOptions): Promise<OverlayResult>;
  actionSheet(options: ActionSheetOptions): Promise<OverlayResult>;
  modal(options: ModalOptions): Promise<OverlayResult>;
  popover(options: PopoverOptions): Promise<OverlayResult>;
  toast(options: ToastOptions): Promise<OverlayResult>;
}
