type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The prototype's setter: past the per-element one React installs to notice changes. */
const valueSetter = (field: Field) =>
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;

const isCheckable = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

type Interaction =
  { kind: 'click'; target: HTMLElement } | { kind: 'submit'; form: HTMLFormElement; submitter: HTMLElement | null };

export interface UserInputCapture {
  /**
   * Call once the screen has hydrated: gives it what the user did meanwhile, the fields' values as
   * the input events React listens to, then taps and submits in order, so the screen's own
   * handlers run as if its code had been there. Fields are read now, not before hydrating: typing
   * goes on while React hydrates, and hydration leaves the values in the fields.
   */
  replay(): void;
  /** Stops holding taps and submits, replaying nothing (the screen was not hydrated). */
  release(): void;
}

/**
 * Holds the user's input on a prerendered screen until its code has arrived. Taps and submits are
 * held back (a form submitted before the code would be sent by the browser itself, its values in
 * the URL); typing stays in the fields and is read when `replay` runs. What is typed is also noted
 * as it is typed: a render of the screen between hydration and the replay (a state update in its
 * commit) puts a controlled field back to the screen's state, and the note is then what is left.
 */
export function captureUserInput(container: HTMLElement): UserInputCapture {
  const interactions: Interaction[] = [];
  const hold = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation(); // React's own listener on this container replays nothing twice
  };
  const onClick = (event: MouseEvent) => {
    if (!(event.target instanceof HTMLElement)) return;
    hold(event);
    interactions.push({ kind: 'click', target: event.target });
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement)) return;
    hold(event);
    interactions.push({ kind: 'submit', form: event.target, submitter: event.submitter });
  };
  const typedAsTyped = new Map<Field, string>();
  const onInput = (event: Event) => {
    const field = event.target;
    if (isField(field) && !isCheckable(field)) typedAsTyped.set(field, field.value);
  };
  container.addEventListener('click', onClick, true);
  container.addEventListener('submit', onSubmit, true);
  container.addEventListener('input', onInput, true);

  const release = () => {
    container.removeEventListener('click', onClick, true);
    container.removeEventListener('submit', onSubmit, true);
    container.removeEventListener('input', onInput, true);
  };
  return {
    release,
    replay() {
      release();
      // All read first: the first replayed change re-renders the form, which puts every other
      // field back to the screen's state.
      const fields = Array.from(container.querySelectorAll<Field>('input, textarea, select'));
      // The field's value, unless a render has put it back to the server's: then the last typed.
      const typed = fields
        .filter((field) => !isCheckable(field))
        .map((field) => ({
          field,
          value: field.value !== initialValue(field) ? field.value : (typedAsTyped.get(field) ?? field.value),
        }));
      // A box ticked before this capture began (the page shows before its first script runs); a
      // tap held since then left the box as it was, and is replayed below.
      const ticked = fields
        .filter(isCheckable)
        .filter((box) =>
          box.type === 'radio' ? box.checked && !box.defaultChecked : box.checked !== box.defaultChecked,
        );
      for (const { field, value } of typed) replayField(field, value);
      for (const box of ticked) replayTick(box);
      for (const interaction of interactions.splice(0)) {
        if (interaction.kind === 'click' && interaction.target.isConnected) interaction.target.click();
        if (interaction.kind === 'submit' && interaction.form.isConnected) {
          if (interaction.submitter?.isConnected) interaction.form.requestSubmit(interaction.submitter);
          else interaction.form.requestSubmit();
        }
      }
    },
  };
}

/** The value the server rendered the field with. */
const initialValue = (field: Field): string | undefined =>
  field instanceof HTMLSelectElement
    ? (Array.from(field.options).find((option) => option.defaultSelected) ?? field.options[0])?.value
    : field.defaultValue;

/** A field the user changed (its value differs from the server's), changed again as the browser would. */
function replayField(field: Field, value: string) {
  if (!field.isConnected) return;
  const initial = initialValue(field);
  if (initial === undefined || value === initial) return;
  // The element's own setter first, so React's record of the value is the initial one, whether or
  // not React has reset the field yet; then the user's value and the event.
  field.value = initial;
  valueSetter(field)?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** A box the user ticked or cleared before the screen's code was there, ticked again as the browser would. */
function replayTick(box: HTMLInputElement) {
  if (!box.isConnected) return;
  // The element's own setter puts React's record back to the server's state; the tap then changes it.
  box.checked = box.type === 'radio' ? false : box.defaultChecked;
  box.click();
}
