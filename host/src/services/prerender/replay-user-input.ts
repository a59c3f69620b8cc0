type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The prototype's setter: past the per-element one React installs to notice changes. */
const valueSetter = (field: Field) => Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;

/**
 * What the user typed into a prerendered screen before its code arrived. Hydration puts each
 * controlled field back to the screen's initial state, so this notes every field the user changed
 * (value or checked state differs from the server's) and returns what replays it afterwards, as
 * the browser events React listens to: the screen's own handlers then take the input as typed.
 */
export function captureUserInput(container: HTMLElement): () => void {
  const changed: Array<{ field: Field; value: string; checked: boolean }> = [];
  for (const field of Array.from(container.querySelectorAll<Field>('input, textarea, select'))) {
    const checkable = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    if (checkable ? field.checked !== field.defaultChecked : field instanceof HTMLSelectElement ? field.selectedOptions[0]?.defaultSelected === false : field.value !== field.defaultValue) {
      changed.push({ field, value: field.value, checked: checkable && field.checked });
    }
  }
  return () => {
    for (const { field, value, checked } of changed) {
      if (!field.isConnected) continue;
      // The element's own setter first, so React's record of the value is the initial one (React
      // may not have reset the field yet); then the change, as the browser would make it.
      if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
        field.checked = !checked;
        field.click();
      } else {
        field.value = field instanceof HTMLSelectElement ? (field.options[0]?.value ?? '') : field.defaultValue;
        valueSetter(field)?.call(field, value);
        field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
      }
    }
  };
}
