import type { Page } from '@playwright/test';

/**
 * Layout checks of WCAG 2.2 AA that axe cannot make: each returns the problems it finds, described
 * so that a failure message names the element; an empty list is a pass.
 */

/** 1.4.10 Reflow: nothing scrolls sideways, neither the page nor an open dialog. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    // Against the layout viewport: a phone browser zooms out to fit wide content, widening innerWidth.
    const root = document.scrollingElement ?? document.documentElement;
    const width = document.documentElement.clientWidth;
    if (root.scrollWidth > width + 1) problems.push(`page is ${root.scrollWidth}px wide in a ${width}px viewport`);
    if (window.visualViewport && window.visualViewport.scale < 0.99)
      problems.push(`page zoomed out to ${window.visualViewport.scale.toFixed(2)} to fit its content`);
    for (const dialog of document.querySelectorAll<HTMLElement>('dialog[open], dialog[open] *')) {
      const style = getComputedStyle(dialog);
      if (!/(auto|scroll)/.test(style.overflowX)) continue;
      if (dialog.scrollWidth > dialog.clientWidth + 1)
        problems.push(`${dialog.className} scrolls sideways (${dialog.scrollWidth} > ${dialog.clientWidth})`);
    }
    return problems;
  });
}

/**
 * 2.5.8 Target Size (Minimum): every pointer target of the current layer is at least 24×24 CSS px,
 * or (the spacing exception) a 24 px circle centred on it meets no other target nor another small
 * target's circle. Targets inside a sentence (the inline exception) are skipped.
 */
export async function undersizedTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MIN = 24;
    const layer = document.querySelector('dialog[open]') ?? document.body;
    const targets = [
      ...layer.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, [role="button"], [tabindex]:not([tabindex="-1"])',
      ),
    ].filter(
      (el) =>
        !el.matches(':disabled') &&
        !el.closest('.sg-visually-hidden') &&
        !(layer === document.body && el.closest('dialog')) &&
        el.getClientRects().length > 0,
    );
    const inSentence = (el: HTMLElement) => {
      if (!['inline', 'inline-block'].includes(getComputedStyle(el).display)) return false;
      const parent = el.parentElement;
      return (
        !!parent &&
        [...parent.childNodes].some(
          (node) => node !== el && node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
        )
      );
    };
    const boxes = targets.map((el) => ({ el, rect: el.getBoundingClientRect() }));
    const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const circleMeetsRect = (c: { x: number; y: number }, r: DOMRect) => {
      const dx = Math.max(r.left - c.x, 0, c.x - r.right);
      const dy = Math.max(r.top - c.y, 0, c.y - r.bottom);
      return dx * dx + dy * dy < (MIN / 2) ** 2;
    };
    const describe = (el: Element, r: DOMRect) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} ${Math.round(r.width)}×${Math.round(r.height)}`;
    const problems: string[] = [];
    for (const { el, rect } of boxes) {
      if (rect.width >= MIN - 0.5 && rect.height >= MIN - 0.5) continue;
      if (inSentence(el)) continue;
      // A click on its label toggles a control too (a checkbox): the label's box is its target as well.
      const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
      const labelBox = label?.getBoundingClientRect();
      if (labelBox && labelBox.width >= MIN && labelBox.height >= MIN) continue;
      const c = centre(rect);
      const crowded = boxes.some(({ el: other, rect: r }) => {
        if (other === el || other.contains(el) || el.contains(other)) return false;
        if (circleMeetsRect(c, r)) return true;
        const small = r.width < MIN || r.height < MIN;
        const oc = centre(r);
        return small && Math.hypot(oc.x - c.x, oc.y - c.y) < MIN;
      });
      if (crowded) problems.push(describe(el, rect));
    }
    return problems;
  });
}

/** The 1.4.12 Text Spacing overrides, as the WCAG test bookmarklet applies them. */
export const TEXT_SPACING_CSS = `
  *, *::before, *::after { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
  p { margin-block-end: 2em !important; }
`;

/**
 * 1.4.12: text that is cut off (its box clips it and it does not scroll) or that overlaps other
 * text of the same layer (the page, a bar, a dialog). Run after adding {@link TEXT_SPACING_CSS}.
 */
export async function clippedOrOverlappingText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 24)}"`;
    const root = document.querySelector('dialog[open]') ?? document.body;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const pieces: { el: Element; layer: Element | null; rects: DOMRect[] }[] = [];
    const layerOf = (el: Element): Element | null => {
      for (let node: Element | null = el; node; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === 'fixed' || position === 'sticky' || node.tagName === 'DIALOG') return node;
      }
      return null;
    };
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (
        !el ||
        (node.textContent ?? '').trim() === '' ||
        el.closest('.sg-visually-hidden, svg, script, style, [aria-hidden="true"]')
      )
        continue;
      if (root === document.body && el.closest('dialog, [popover]')) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (rects.length) pieces.push({ el, layer: layerOf(el), rects });
      // Clipping: an ancestor that hides overflow (and does not scroll) cuts the text's box.
      for (let box: Element | null = el; box && box !== root.parentElement; box = box.parentElement) {
        const style = getComputedStyle(box);
        // Text inside a scrolling box can be scrolled to: boxes beyond it do not hide it.
        if (box !== el && /(auto|scroll)/.test(style.overflowX + style.overflowY)) break;
        if (!/(hidden|clip)/.test(style.overflowX + style.overflowY)) continue;
        const b = box.getBoundingClientRect();
        if (
          rects.some(
            (r) => r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1,
          )
        ) {
          problems.push(`${describe(el)} is clipped by ${describe(box)}`);
        }
      }
    }
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        const a = pieces[i]!;
        const b = pieces[j]!;
        if (a.layer !== b.layer) continue;
        const overlap = a.rects.some((r) =>
          b.rects.some(
            (s) =>
              Math.min(r.right, s.right) - Math.max(r.left, s.left) > 1 &&
              Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > 1,
          ),
        );
        if (overlap) problems.push(`${describe(a.el)} overlaps ${describe(b.el)}`);
      }
    }
    return problems;
  });
}
