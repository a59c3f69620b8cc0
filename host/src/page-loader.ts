import { SCREEN_ATTRIBUTE } from '@special-gift/shared/composition';
import { holdInputUntilTheApp } from './services/prerender/prerendered-screen';

/**
 * The composed page's first script (see toPageTemplate): with a prerendered screen, the app's
 * bundle runs only once the screen is on the glass (its start-up would otherwise hold the first
 * paint on a slow phone), and the user's taps on the screen are held for the app meanwhile. The
 * bundle downloads in parallel (a preload in the page); `data-app` names it.
 */

/** At most this long after the loader runs, the app starts even if no paint was reported. */
const PAINT_WAIT_CAP_MS = 1000;

const app = document.currentScript?.dataset.app;

function startApp() {
  const script = document.createElement('script');
  script.src = app ?? '';
  document.head.append(script);
}

/** Calls `run` once the first contentful paint has been presented (not merely drawn), or at the cap. */
function afterFirstContentfulPaint(run: () => void) {
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
  if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
    observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) once();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    // No paint timing: two frames, so the first has been drawn and handed over.
    requestAnimationFrame(() => requestAnimationFrame(once));
  }
}

if (!app) {
  console.error('[page-loader] the page names no app bundle (data-app)');
} else {
  holdInputUntilTheApp(document);
  // A hidden tab paints nothing: nothing to wait for there.
  const screenToPaint = document.querySelector(`[${SCREEN_ATTRIBUTE}]`) !== null && document.visibilityState === 'visible';
  if (screenToPaint) afterFirstContentfulPaint(startApp);
  else startApp();
}
