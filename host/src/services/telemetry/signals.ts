/**
 * What the host notices for field telemetry (docs/telemetry.md), kept in the page until the
 * collector (src/collector/, its own small build, loaded after the first screen) reads it, words it
 * and sends it. Only the collector sends anything, and it is never loaded under Global Privacy
 * Control or Do Not Track. Kept on `window` so the collector, another bundle, finds it; it replaces
 * the array with its own `push` once it runs.
 */
export type HostSignal =
  /** A remote's screen could not be loaded (`error`: what remote-screens threw), or a lazy chunk of it. */
  | { readonly kind: 'load_failure'; readonly remote: string; readonly error: unknown; readonly lazy?: true }
  /** A remote's error boundary caught a render error. */
  | { readonly kind: 'render_error'; readonly remote: string; readonly error: unknown }
  /** An uncaught error (`source`: the script URL the browser names) or unhandled rejection. */
  | { readonly kind: 'uncaught'; readonly error: unknown; readonly source?: string; readonly rejection: boolean };

export type TimedSignal = HostSignal & { readonly t: number };

export interface SignalSink {
  push(signal: TimedSignal): unknown;
}

declare global {
  interface Window {
    __sgSignals?: SignalSink;
  }
}

/** Signals kept before the collector runs: enough for any real page; a storm of errors is not kept whole. */
export const MAX_KEPT_SIGNALS = 100;

export function recordSignal(signal: HostSignal): void {
  const sink = (window.__sgSignals ??= [] as TimedSignal[]);
  if (!Array.isArray(sink) || sink.length < MAX_KEPT_SIGNALS) sink.push({ ...signal, t: performance.now() });
}

/** Uncaught errors and rejections, from the first moment the host's code runs. */
export function recordUncaughtErrors(): void {
  window.addEventListener('error', (event) =>
    recordSignal({ kind: 'uncaught', error: event.error, source: event.filename, rejection: false }),
  );
  window.addEventListener('unhandledrejection', (event) =>
    recordSignal({ kind: 'uncaught', error: event.reason, rejection: true }),
  );
}
