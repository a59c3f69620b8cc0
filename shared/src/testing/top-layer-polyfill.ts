// Test-only: jsdom has no showModal/close/showPopover. Installs minimal stand-ins that keep a
// top-layer list, so tests can check stacking order. Exported through `@special-gift/shared/testing`.

export interface TopLayer {
  /** Elements in the top layer, bottom first (a removed element leaves it, as in browsers). */
  readonly elements: readonly HTMLElement[];
  uninstall(): void;
}

export function installTopLayerPolyfill(): TopLayer {
  const elements: HTMLElement[] = [];
  const remove = (element: HTMLElement) => {
    const index = elements.indexOf(element);
    if (index >= 0) elements.splice(index, 1);
  };
  const dialog = HTMLDialogElement.prototype;
  const html = HTMLElement.prototype;
  Object.defineProperty(dialog, 'showModal', {
    configurable: true,
    value(this: HTMLDialogElement) {
      this.setAttribute('open', '');
      elements.push(this);
    },
  });
  Object.defineProperty(dialog, 'close', {
    configurable: true,
    value(this: HTMLDialogElement) {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      remove(this);
      // As in browsers, `close` is queued as a task, not dispatched synchronously.
      setTimeout(() => this.dispatchEvent(new Event('close')), 0);
    },
  });
  Object.defineProperty(html, 'showPopover', {
    configurable: true,
    value(this: HTMLElement) {
      this.dataset.popoverOpen = '';
      elements.push(this);
    },
  });
  Object.defineProperty(html, 'hidePopover', {
    configurable: true,
    value(this: HTMLElement) {
      delete this.dataset.popoverOpen;
      remove(this);
    },
  });
  // jsdom's selector engine rejects the unknown pseudo-class; answer it from our own flag.
  const matches = html.matches;
  Object.defineProperty(html, 'matches', {
    configurable: true,
    value(this: HTMLElement, selector: string) {
      return selector === ':popover-open' ? this.dataset.popoverOpen !== undefined : matches.call(this, selector);
    },
  });
  return {
    get elements() {
      return elements.filter((element) => element.isConnected);
    },
    uninstall() {
      for (const name of ['showModal', 'close'] as const) Reflect.deleteProperty(dialog, name);
      for (const name of ['showPopover', 'hidePopover', 'matches'] as const) Reflect.deleteProperty(html, name);
      elements.length = 0;
    },
  };
}
