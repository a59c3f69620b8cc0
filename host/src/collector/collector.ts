/**
 * The field-telemetry collector (docs/telemetry.md): its own small build, loaded by the host once
 * the first screen is up and the other remotes preloaded (services/telemetry/load-collector.ts),
 * never under Global Privacy Control or Do Not Track. It words what the host noticed, adds the web
 * vitals (from the browser's buffered entries, so nothing is missed by loading late), attributes
 * each to a remote and the build the page runs, and sends one batch per page, with sendBeacon,
 * when the page is first hidden.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricWithAttribution } from 'web-vitals/attribution';
import {
  isSafeTarget,
  MAX_EVENTS_PER_BATCH,
  TELEMETRY_VERSION,
  validateTelemetryBatch,
  type TelemetryBatch,
  type TelemetryEvent,
  type VitalName,
} from '@special-gift/shared/telemetry';
import { REMOTES } from '../config/remotes.generated';
import type { TimedSignal } from '../services/telemetry/signals';
import {
  buildsOf,
  deviceOf,
  errorNameOf,
  loadFailureOf,
  remoteOfElement,
  remoteOfScript,
  routeOf,
  scriptOf,
  targetOf,
} from './describe';
import { sendKept, sendOrKeep } from './offline-batches';
import { fetchPageToken } from './page-token';

/** How long a page hidden before its token came waits for it before it sends its batch unsigned. */
const TOKEN_WAIT_MS = 1000;

const context = window.__sgTelemetry;
if (context) startCollecting(context.endpoint, context.entries);

function startCollecting(endpoint: string, entries: Readonly<Record<string, string>>): void {
  const beacon = (body: string) => void navigator.sendBeacon(endpoint, body);
  // Batches earlier pages made offline (docs/offline.md): sent once, now that this page is online.
  sendKept(beacon);
  const route = routeOf(window.location.pathname);
  const builds = buildsOf(entries);
  const events: TelemetryEvent[] = [];
  /** Each vital's latest value (web-vitals may report one more than once; see `onINP` below). */
  const vitals = new Map<VitalName, TelemetryEvent>();
  let sent = false;
  // The page's token, asked now (the first screen is up).
  let token: string | undefined;
  let tokenSettled = false;
  const tokenAsked = fetchPageToken(document).then((issued) => {
    token = issued;
    tokenSettled = true;
  });
  const add = (event: TelemetryEvent) => {
    if (!sent && events.length < MAX_EVENTS_PER_BATCH) events.push(event);
  };
  const at = (t: number) => Math.max(0, Math.round(t));

  /** Whether a remote's entry has loaded (a timeout then happened after it, at the screen). */
  const entryLoaded = (remote: string) => {
    const entry = entries[remote]?.split('?')[0];
    return (
      entry !== undefined && performance.getEntriesByType('resource').some((timing) => timing.name.startsWith(entry))
    );
  };

  const word = (signal: TimedSignal) => {
    switch (signal.kind) {
      case 'load_failure':
        add({
          type: 'load_failure',
          remote: signal.remote,
          ...loadFailureOf(signal.error, { lazy: signal.lazy, entryLoaded: entryLoaded(signal.remote) }),
          t: at(signal.t),
        });
        break;
      case 'render_error':
        add({ type: 'render_error', remote: signal.remote, errorName: errorNameOf(signal.error), t: at(signal.t) });
        break;
      case 'uncaught':
        add({
          type: 'uncaught',
          remote: remoteOfScript(scriptOf(signal.error, signal.source), entries),
          errorName: errorNameOf(signal.error),
          rejection: signal.rejection,
          t: at(signal.t),
        });
        break;
    }
  };
  // What the host kept before this ran, then whatever it notices from now on.
  const kept = window.__sgSignals;
  window.__sgSignals = { push: word };
  if (Array.isArray(kept)) (kept as TimedSignal[]).forEach(word);

  // The element behind a vital, described here (tag and classes only) with its remote in front.
  const generateTarget = (node: Node | null) => {
    const element = node instanceof Element ? node : (node?.parentElement ?? null);
    return `${remoteOfElement(element, window.location.pathname) ?? ''}|${targetOf(element) ?? ''}`;
  };
  const vital = (metric: MetricWithAttribution) => {
    const attribution = metric.attribution as {
      target?: string;
      interactionTarget?: string;
      largestShiftTarget?: string;
    };
    const described = attribution.target ?? attribution.interactionTarget ?? attribution.largestShiftTarget ?? '|';
    const [remote = '', target = ''] = described.split('|');
    if (sent) return;
    vitals.set(metric.name as VitalName, {
      type: 'vital',
      name: metric.name as VitalName,
      value: metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value),
      remote: remote || (metric.name === 'TTFB' || metric.name === 'FCP' ? remoteOfRoute() : null),
      rating: metric.rating,
      ...(isSafeTarget(target) ? { target } : {}),
      t: at(performance.now()),
    });
  };
  const options = { generateTarget };
  onLCP(vital, options);
  // Every change of INP, the latest kept: web-vitals handles event entries in an idle callback, and
  // when the page is hidden before that callback ran, it handles them at hide without reporting,
  // so a tap followed by a switch away within the idle wait (up to 1 s) lost the page's INP.
  onINP(vital, { ...options, reportAllChanges: true });
  onCLS(vital, options);
  onFCP(vital, options);
  onTTFB(vital, options);

  /**
   * Once, when the page is first hidden (after web-vitals, listening in the capture phase, has
   * reported its final values) or goes away. Hidden before its token came, the page (still alive)
   * waits for it up to TOKEN_WAIT_MS; going away, it sends at once, unsigned.
   */
  let waitingForToken = false;
  const send = (event: Event) => {
    if (sent || (event.type === 'visibilitychange' && document.visibilityState !== 'hidden')) return;
    if (event.type === 'visibilitychange' && !tokenSettled) {
      if (!waitingForToken) {
        waitingForToken = true;
        void Promise.race([tokenAsked, new Promise((resolve) => setTimeout(resolve, TOKEN_WAIT_MS))]).then(sendBatch);
      }
      return;
    }
    sendBatch();
  };
  function sendBatch() {
    if (sent) return;
    sent = true;
    const batch: TelemetryBatch = {
      v: TELEMETRY_VERSION,
      route,
      device: deviceOf(Math.min(screen.width, screen.height), matchMedia('(pointer: coarse)').matches),
      builds,
      // Vitals first: at most five, and the ones the report is read for.
      events: [...vitals.values(), ...events].slice(0, MAX_EVENTS_PER_BATCH),
      // The host's token for this page: its batch then counts in the canary verdict (docs/telemetry.md).
      ...(token === undefined ? {} : { token }),
    };
    const vocabulary = { routes: REMOTES.map((remote) => remote.route), remotes: REMOTES.map((remote) => remote.name) };
    // What the API would refuse is left out here, never sent to be refused.
    const valid = batch.events.filter((event) => validateTelemetryBatch({ ...batch, events: [event] }, vocabulary).ok);
    if (valid.length > 0) sendOrKeep(JSON.stringify({ ...batch, events: valid }), beacon);
  }
  document.addEventListener('visibilitychange', send);
  window.addEventListener('pagehide', send);

  /** TTFB and FCP belong to the page as it landed: the landing route's remote. */
  function remoteOfRoute(): string | null {
    return REMOTES.find((remote) => remote.route === route)?.name ?? null;
  }
}
