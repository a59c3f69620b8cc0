import { holdInputUntilTheApp } from './features/first-screen/hand-off';

/**
 * The composed page's first script (see toPageTemplate): with a prerendered screen, the app's
 * bundle runs only once the screen is on the glass (its start-up would otherwise hold the screen's
 * paint on a slow phone), and the user's taps on the screen are held for the app meanwhile. The
 * bundle downloads in parallel (a preload in the page); `data-app` names it.
 */

/** At most this long after the loader runs, the app starts even if no paint was reported. */
const PAINT_WAIT_CAP_MS = 1000;
/** After two frames with nothing larger painted, the screen is taken as shown. */
const SETTLE_MS = 50;

const app = document.currentScript?.dataset.app;

function startApp() {
  const script = document.createElement('script');
  script.src = app ?? '';
  document.head.append(script);
}

/**
 * Calls `run` once the whole screen has been presented (not merely drawn). The loader runs when
 * the page is parsed, but the browser may have painted part of it before (the page streams in):
 * a largest paint reported after this moment is the whole screen's. If none comes within two
 * frames and a little, the largest part was already on the glass. Capped, whatever happens.
 */
function afterTheScreenIsShown(run: () => void) {
  const since = performance.now();
  let started = false;
  let observer: PerformanceObserver | undefined;
  const once = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    clearTimeout(cap);
    run();
  };
  const cap = setTimeout(once, PAINT_WAIT_CAP_MS);
  if (PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')) {
    observer = new PerformanceObserver((entries) => {
      if (entries.getEntries().some((entry) => entry.startTime >= since)) once();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(once, SETTLE_MS)));
}

if (!app) {
  console.error('[page-loader] the page names no app bundle (data-app)');
} else {
  const screen = holdInputUntilTheApp(document);
  // A hidden tab paints nothing: nothing to wait for there.
  const screenToPaint = screen !== null && document.visibilityState === 'visible';
  if (screenToPaint) afterTheScreenIsShown(startApp);
  else startApp();
}
