import type { Page } from '@playwright/test';

/** What the focused element looks like against the bars that stay on screen while the page scrolls. */
export interface FocusReport {
  /** `tag#id.class "text"`: enough to name the element in a failure message. */
  element: string;
  /** Share of the element's on-screen box covered by fixed or sticky bars (0-1). */
  hiddenShare: number;
  /** The same for its label (a form field's), so the user can tell which field it is; 0 without one. */
  labelHiddenShare: number;
  /** Share of the element's box that is inside the viewport at all (0-1). */
  inViewShare: number;
  /** True when nothing but the document itself has focus, or the document has none (the browser's UI has it). */
  none: boolean;
}

/**
 * Up to this share of the focused element may sit under a bar (WCAG 2.4.11 fails only when it is
 * entirely hidden; we allow no more than a sliver, e.g. a few pixels of a text field's border).
 */
export const SLIVER = 0.1;

/**
 * How much of the focused element a fixed or sticky bar covers. A "bar" is an element positioned
 * fixed or sticky that paints a background (so the empty, transparent toast region is not one) and
 * does not contain the focused element (a toolbar button is not hidden by its own toolbar). While a
 * modal dialog is open only bars inside it count: the dialog is in the top layer, above the page.
 */
export function focusReportInPage(): FocusReport {
  const focused = document.activeElement;
  if (!document.hasFocus() || !focused || focused === document.body || focused === document.documentElement) {
    return { element: 'body', hiddenShare: 0, labelHiddenShare: 0, inViewShare: 0, none: true };
  }
  const describe = (el: Element) => {
    const text = (el.textContent ?? '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}${text ? ` "${text}"` : ''}`;
  };

  const clip = (a: DOMRect, b: { left: number; top: number; right: number; bottom: number }) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0
      ? {
          left: Math.max(a.left, b.left),
          top: Math.max(a.top, b.top),
          right: Math.min(a.right, b.right),
          bottom: Math.min(a.bottom, b.bottom),
        }
      : undefined;
  };
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };

  const layer = focused.closest('dialog[open]') ?? document.body;
  const bars = [...layer.querySelectorAll<HTMLElement>('*')].filter((el) => {
    if (el.contains(focused) || focused.contains(el)) return false;
    if (layer === document.body && el.closest('dialog[open], [popover]')) return false;
    const style = getComputedStyle(el);
    if (style.position !== 'fixed' && style.position !== 'sticky') return false;
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const transparent = style.backgroundColor === 'rgba(0, 0, 0, 0)' || style.backgroundColor === 'transparent';
    return !transparent || style.backgroundImage !== 'none';
  });
  /** Share of `box` inside the viewport, and share of that part under the bars. */
  const measure = (box: DOMRect) => {
    const inView = clip(box, viewport);
    const inViewArea = inView ? (inView.right - inView.left) * (inView.bottom - inView.top) : 0;
    // Bars do not overlap each other (toolbar on top, footer at the bottom), so their covers add up.
    let hidden = 0;
    for (const bar of bars) {
      const cover = inView && clip(bar.getBoundingClientRect(), inView);
      if (cover) hidden += (cover.right - cover.left) * (cover.bottom - cover.top);
    }
    return {
      inViewShare: inViewArea / Math.max(1, box.width * box.height),
      hiddenShare: inViewArea ? Math.min(1, hidden / inViewArea) : 1,
    };
  };
  const own = measure(focused.getBoundingClientRect());
  const labels = focused instanceof HTMLInputElement && focused.labels ? [...focused.labels] : [];
  const labelHiddenShare = Math.max(0, ...labels.map((label) => measure(label.getBoundingClientRect()).hiddenShare));
  return { element: describe(focused), ...own, labelHiddenShare, none: false };
}

/**
 * Every element the keyboard can reach in the current layer (the open modal dialog, or the page),
 * in document order, described as in {@link FocusReport}. Sequential focus order equals document
 * order here: the app uses no positive tabindex.
 */
export function tabbablesInPage(): string[] {
  const layer = document.querySelector('dialog[open]') ?? document.body;
  const selector = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), summary';
  const describe = (el: Element) => {
    const text = (el.textContent ?? '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}${text ? ` "${text}"` : ''}`;
  };
  return [...layer.querySelectorAll<HTMLElement>(selector)]
    .filter((el) => {
      if (el.matches(':disabled') || el.closest('[inert]') || el.tabIndex < 0) return false;
      if (layer === document.body && el.closest('dialog, [popover]')) return false;
      return el.checkVisibility({ visibilityProperty: true }) && el.getClientRects().length > 0;
    })
    .map(describe);
}

/** What the checks need of a browser: Playwright's page (`onPage`) or the cross-engine driver. */
export interface FocusTarget {
  press(key: 'Tab' | 'Shift+Tab'): Promise<void>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
}

export const onPage = (page: Page): FocusTarget => ({
  press: (key) => page.keyboard.press(key),
  evaluate: <R>(fn: () => R | Promise<R>) => page.evaluate(fn) as Promise<R>,
});

export interface WalkStep extends FocusReport {
  key: string;
}

/**
 * Walks the current layer's stops with the keyboard without ever leaving the document: Tab from
 * wherever the screen put focus (the page title, a field focused by script) to the last stop,
 * Shift+Tab back to the first, then Tab on until every stop has been reached forwards too. So each
 * direction reaches every element, and the focused element is reported after each key.
 *
 * It never presses past the page's ends: there focus leaves for the browser's own UI, which the
 * page does not control, and headless Firefox (whose keys WebDriver BiDi sends to the page's
 * process) never gives the document its focus back: `document.hasFocus()` stays false, and its
 * Shift+Tab skipped the page's last control. A step where the document has lost focus anyway is
 * reported (`none`), so focus leaving early fails the check.
 */
export async function walkFocus(
  target: FocusTarget,
): Promise<{ steps: WalkStep[]; tabbables: string[]; reached: Record<'Tab' | 'Shift+Tab', Set<string>> }> {
  const tabbables = await target.evaluate(tabbablesInPage);
  const steps: WalkStep[] = [];
  const reached = { Tab: new Set<string>(), 'Shift+Tab': new Set<string>() };
  if (tabbables.length === 0) return { steps, tabbables, reached };
  let at = (await target.evaluate(focusReportInPage)).element;
  const walk = async (key: 'Tab' | 'Shift+Tab', done: () => boolean) => {
    // A direction's walk starts where the last one stopped (the last stop, for Shift+Tab): it counts.
    reached[key].add(at);
    // One more than the stops: enough to reach any stop from anywhere without wrapping.
    for (let pressed = 0; pressed <= tabbables.length && !done(); pressed++) {
      await target.press(key);
      const step = { key, ...(await target.evaluate(focusReportInPage)) };
      steps.push(step);
      if (step.none) return;
      reached[key].add(step.element);
      at = step.element;
    }
  };
  await walk('Tab', () => at === tabbables.at(-1));
  await walk('Shift+Tab', () => at === tabbables[0]);
  await walk('Tab', () => tabbables.every((element) => reached.Tab.has(element)) || at === tabbables.at(-1));
  return { steps, tabbables, reached };
}

const obscured = (report: FocusReport) =>
  !report.none && (report.hiddenShare > SLIVER || report.labelHiddenShare > SLIVER || report.inViewShare < 1 - SLIVER);
const describeFocus = (report: FocusReport, key: string) =>
  `${key} → ${report.element}: ${Math.round(report.hiddenShare * 100)}% under a bar (its label ${Math.round(report.labelHiddenShare * 100)}%), ${Math.round(report.inViewShare * 100)}% in view`;

/**
 * Focus after the screen opened (moved there by script), then Tab forward through every element and
 * Shift+Tab back: never hidden beyond a sliver, never off the page's controls, and every tabbable
 * element reached both ways.
 */
export async function focusProblems(target: FocusTarget): Promise<string[]> {
  const problems: string[] = [];
  // An overlay that is still sliding in is not yet where it stays: measure once it is (or once its
  // animation was cancelled, which rejects `finished`: it moves nothing any more either).
  await target.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => true),
  );
  if (!(await target.evaluate(() => document.hasFocus())))
    problems.push('the document has no focus at the start (the window is not focused): no key reaches the page');
  const initial = await target.evaluate(focusReportInPage);
  if (obscured(initial)) problems.push(describeFocus(initial, 'script'));
  const { steps, tabbables, reached } = await walkFocus(target);
  for (const step of steps) {
    if (obscured(step)) problems.push(describeFocus(step, step.key));
    if (step.none)
      problems.push(`${step.key} → focus left the page's controls (on <body>, or the document lost focus)`);
  }
  for (const key of ['Tab', 'Shift+Tab'] as const) {
    const missed = tabbables.filter((element) => !reached[key].has(element));
    if (missed.length) problems.push(`${key} never reached ${missed.join(', ')}`);
  }
  return problems;
}
