/** How a page change is animated: forward and back slide, root does not. */
export type NavigationDirection = 'forward' | 'back' | 'root';

export interface ShellLocation {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

export interface Navigation {
  /** Pushes `to` with a forward transition. */
  forward(to: string): void;
  /**
   * Goes back to the previous in-app entry when there is one; otherwise navigates to `defaultHref`
   * with a back transition; otherwise does nothing.
   */
  back(defaultHref?: string): void;
  /** Replaces the current entry with `to` and starts a new stack: Back cannot return into a finished flow. */
  root(to: string): void;
  /** True when there is an in-app entry to go back to. */
  canGoBack(): boolean;
  /** The current location; returns the same object until the location changes (a store snapshot). */
  location(): ShellLocation;
  /** Notifies on every location change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}
