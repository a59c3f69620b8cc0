import { COLLECTOR_META_NAME } from '@special-gift/shared/composition';

/** What the collector needs of the page it reports on, handed over by the host when it loads it. */
export interface CollectorContext {
  /** `POST` batches here: the API's `/telemetry`, same origin. */
  readonly endpoint: string;
  /** Each remote's entry as this page loads it (its build's, or the remote's own): origins and builds. */
  readonly entries: Readonly<Record<string, string>>;
}

declare global {
  interface Window {
    __sgTelemetry?: CollectorContext;
  }
}

/** The browser asks not to be tracked: Global Privacy Control, or Do Not Track. Then nothing is sent. */
export function trackingRefused(nav: Navigator & { globalPrivacyControl?: boolean } = navigator): boolean {
  return nav.globalPrivacyControl === true || nav.doNotTrack === '1';
}

/** What the collector will need, set at start-up: the page's API and the entries it loads. */
export function prepareCollector(context: CollectorContext): void {
  window.__sgTelemetry = context;
}

let requested = false;

/**
 * Loads the field-telemetry collector once the page has settled: the first screen up and the other
 * remotes preloaded, or an error screen shown instead. None of its code is in the first screen's,
 * and the performance entries it reads are buffered by the browser meanwhile. Not at all when
 * tracking is refused or the page names none; once per page.
 */
export function loadCollector(): void {
  // The page names it (`<meta name="sg-collector">`, written by the host's build).
  const src = document.querySelector<HTMLMetaElement>(`meta[name="${COLLECTOR_META_NAME}"]`)?.content;
  if (requested || !src || !window.__sgTelemetry || trackingRefused()) return;
  requested = true;
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  document.head.append(script);
}
