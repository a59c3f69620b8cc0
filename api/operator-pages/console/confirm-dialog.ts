// Every action asks first, in a modal <dialog>: what it will change (from → to), the share for a
// canary, the build for a rollback, and the reason (required where the API or the team needs one).
// showModal() keeps focus inside and Escape cancels; focus goes back to the button that opened it.
import { element } from '../element';

export interface ConfirmValues {
  readonly percent?: number;
  readonly reason: string;
  readonly target?: string;
}

export interface ConfirmRequest {
  readonly title: string;
  readonly confirmLabel: string;
  /** The change in words, for the values as they are in the form now. */
  describe(values: ConfirmValues): readonly string[];
  readonly percent?: { readonly initial: number };
  readonly target?: { readonly label: string; readonly options: ReadonlyArray<{ value: string; label: string }> };
  readonly reasonRequired: boolean;
}

let sequence = 0;

export function confirmAction(request: ConfirmRequest, opener: HTMLElement): Promise<ConfirmValues | null> {
  const id = `confirm-${++sequence}`;
  const heading = element('h2', { id: `${id}-title`, textContent: request.title });
  const changeList = element('ul', { className: 'change' });
  const percent = request.percent
    ? element('input', {
        type: 'number',
        name: 'percent',
        min: '1',
        max: '100',
        step: '1',
        required: true,
        value: String(request.percent.initial),
        inputMode: 'numeric',
      })
    : undefined;
  const target = request.target
    ? element(
        'select',
        { name: 'target' },
        request.target.options.map((option) => element('option', { value: option.value, textContent: option.label })),
      )
    : undefined;
  const reason = element('textarea', { name: 'reason', rows: 2, maxLength: 500, required: request.reasonRequired });
  const problem = element('p', { className: 'problem', id: `${id}-problem` });
  problem.setAttribute('role', 'alert');
  const values = (): ConfirmValues => ({
    ...(percent ? { percent: Number(percent.value) } : {}),
    ...(target ? { target: target.value } : {}),
    reason: reason.value.trim(),
  });
  const showChange = () =>
    changeList.replaceChildren(...request.describe(values()).map((line) => element('li', { textContent: line })));
  showChange();

  const confirm = element('button', { type: 'submit', className: 'primary', textContent: request.confirmLabel });
  const cancel = element('button', { type: 'button', textContent: 'Cancel' });
  const form = element('form', { noValidate: true }, [
    heading,
    element('p', { className: 'lead', textContent: 'What will change:' }),
    changeList,
    ...(percent ? [element('label', {}, ['Share of visitors (%)', percent])] : []),
    ...(target && request.target ? [element('label', {}, [request.target.label, target])] : []),
    element('label', {}, [request.reasonRequired ? 'Reason (required)' : 'Reason (optional)', reason]),
    problem,
    element('div', { className: 'buttons' }, [confirm, cancel]),
  ]);
  const dialog = element('dialog', { className: 'confirm' }, [form]);
  dialog.setAttribute('aria-labelledby', heading.id);
  document.body.append(dialog);

  return new Promise((resolve) => {
    let answer: ConfirmValues | null = null;
    percent?.addEventListener('input', showChange);
    target?.addEventListener('change', showChange);
    cancel.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const given = values();
      if (percent && !(Number.isInteger(given.percent) && (given.percent ?? 0) >= 1 && (given.percent ?? 0) <= 100)) {
        problem.textContent = 'The share must be a whole number from 1 to 100.';
        percent.setAttribute('aria-invalid', 'true');
        percent.focus();
        return;
      }
      if (request.reasonRequired && given.reason === '') {
        problem.textContent = 'Say why: a reason is required for this action.';
        reason.setAttribute('aria-invalid', 'true');
        reason.focus();
        return;
      }
      answer = given;
      dialog.close();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener.focus();
      resolve(answer);
    });
    dialog.showModal();
    (percent ?? target ?? reason).focus();
  });
}
