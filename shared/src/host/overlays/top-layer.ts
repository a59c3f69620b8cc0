// Thin wrappers over the top-layer APIs. jsdom (unit tests) has neither showModal nor showPopover,
// so each is feature-detected; without showModal the `open` attribute at least renders the content.

export function openModal(dialog: HTMLDialogElement): void {
  if (typeof dialog.showModal === 'function') {
    if (!dialog.open) dialog.showModal();
  } else {
    dialog.setAttribute('open', '');
  }
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === 'function') dialog.close();
  else dialog.removeAttribute('open');
}

/** (Re)shows a `popover="manual"` element so it becomes the last, i.e. topmost, entry of the top layer. */
export function raiseToTop(element: HTMLElement): void {
  if (typeof element.showPopover !== 'function') return;
  if (element.matches(':popover-open')) element.hidePopover();
  element.showPopover();
}
