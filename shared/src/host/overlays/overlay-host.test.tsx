import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import userEvent from '@testing-library/user-event';
import type { OverlayResult } from '../../contract/overlays';
import { createOverlayController } from './overlay-controller';
import { OverlayHost } from './overlay-host';
import { installTopLayerPolyfill, type TopLayer } from '../../testing';

const labels = { ok: 'OK', cancel: 'Cancel', close: 'Close' };

let topLayer: TopLayer;
beforeEach(() => {
  topLayer = installTopLayerPolyfill();
});
afterEach(() => topLayer.uninstall());

function setup() {
  const controller = createOverlayController();
  const view = render(
    <>
      <button type="button">Opener</button>
      <OverlayHost controller={controller} labels={labels} />
    </>,
  );
  const opener = screen.getByRole('button', { name: 'Opener' });
  opener.focus();
  return { controller, opener, ...view };
}

/** Presents inside act() so the host has rendered (and opened the dialog) when it returns. */
function present(open: () => Promise<OverlayResult>): Promise<OverlayResult> {
  let result: Promise<OverlayResult> | undefined;
  act(() => {
    result = open();
  });
  if (!result) throw new Error('not presented');
  return result;
}

const escape = (dialog: HTMLElement) => {
  const event = new Event('cancel', { cancelable: true });
  act(() => {
    dialog.dispatchEvent(event);
  });
  return event;
};
// Backdrop clicks reach the dialog element at a point outside its box (jsdom boxes are 0x0).
const clickBackdrop = (dialog: HTMLElement) => fireEvent.click(dialog, { clientX: 5, clientY: 5 });
const dialogs = () => Array.from(document.querySelectorAll('dialog'));
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const dialogNamed = (name: string) => screen.getByRole('dialog', { name }) as HTMLDialogElement;

describe('OverlayHost: alert', () => {
  it('is an open alertdialog labelled by its header and described by its message', () => {
    const { controller } = setup();
    void present(() =>
      controller.alert({ header: 'Delete card?', subHeader: 'Gift card', message: 'This cannot be undone.' }),
    );

    const dialog = screen.getByRole('alertdialog', { name: 'Delete card?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
    expect(topLayer.elements[0]).toBe(dialog);
  });

  it('has a default OK button that resolves with role confirm, then removes the dialog and restores focus', async () => {
    const { controller, opener } = setup();
    const result = present(() => controller.alert({ header: 'Saved' }));
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(ok).toHaveFocus();

    await userEvent.click(ok);
    await expect(result).resolves.toEqual({ role: 'confirm', data: undefined });
    expect(dialogs()).toHaveLength(0);
    expect(opener).toHaveFocus();
  });

  it('keeps the alert open while a handler returns false, and awaits async handlers', async () => {
    const { controller } = setup();
    let allow = false;
    const handler = jest.fn(async () => allow);
    const result = present(() =>
      controller.alert({ header: 'Continue?', buttons: [{ text: 'Go', role: 'go', data: 7, handler }] }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(handler).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();

    allow = true;
    await userEvent.click(screen.getByRole('button', { name: 'Go' }));
    await expect(result).resolves.toEqual({ role: 'go', data: 7 });
    expect(dialogs()).toHaveLength(0);
  });

  it('dismisses with role cancel from the cancel button, running its handler once', async () => {
    const { controller } = setup();
    const onCancel = jest.fn();
    const result = present(() =>
      controller.alert({
        header: 'Leave?',
        buttons: [{ text: 'Stay', role: 'cancel', handler: onCancel }, { text: 'Leave' }],
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await expect(result).resolves.toEqual({ role: 'cancel', data: undefined });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['Escape', escape],
    ['a backdrop click', clickBackdrop],
  ])('dismisses with role backdrop on %s and runs the cancel handler exactly once', async (_, act) => {
    const { controller, opener } = setup();
    const onCancel = jest.fn();
    const result = present(() =>
      controller.alert({
        header: 'Leave?',
        buttons: [{ text: 'Stay', role: 'cancel', handler: onCancel }, { text: 'Leave' }],
      }),
    );

    act(screen.getByRole('alertdialog'));
    await expect(result).resolves.toEqual({ role: 'backdrop', data: undefined });
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(dialogs()).toHaveLength(0);
    expect(opener).toHaveFocus();
  });

  it('handles Escape itself (preventDefault) and ignores it, and backdrop clicks, with backdropDismiss false', () => {
    const { controller } = setup();
    void present(() => controller.alert({ header: 'Must answer', backdropDismiss: false }));
    const dialog = screen.getByRole('alertdialog');

    expect(escape(dialog).defaultPrevented).toBe(true);
    clickBackdrop(dialog);
    expect(dialog).toBeInTheDocument();
    expect(dialog).toHaveAttribute('open');
  });

  it('ignores clicks inside the dialog box', () => {
    const { controller } = setup();
    void present(() => controller.alert({ header: 'Hello' }));
    fireEvent.click(screen.getByRole('heading', { name: 'Hello' }));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});

describe('OverlayHost: action sheet', () => {
  it('is a labelled dialog with the cancel button in its own bottom group', async () => {
    const { controller } = setup();
    const result = present(() =>
      controller.actionSheet({
        header: 'Card options',
        buttons: [
          { text: 'Cancel', role: 'cancel' },
          { text: 'Delete', role: 'destructive', data: 'delete' },
          { text: 'Share', data: 'share' },
        ],
      }),
    );
    const sheet = screen.getByRole('dialog', { name: 'Card options' });
    const groups = sheet.querySelectorAll('.sg-action-sheet__group');
    expect(groups).toHaveLength(2);
    expect(
      within(groups[1] as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Cancel']);
    expect(
      within(groups[0] as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Delete', 'Share']);
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveClass('sg-action-sheet__button--destructive');

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(result).resolves.toEqual({ role: 'destructive', data: 'delete' });
  });
});

describe('OverlayHost: modal', () => {
  it('shows a titled dialog with a close button and resolves with what the content dismisses with', async () => {
    const { controller, opener } = setup();
    const result = present(() =>
      controller.modal({
        title: 'Terms',
        render: (dismiss) => (
          <button type="button" onClick={() => dismiss({ accepted: true }, 'confirm')}>
            Accept
          </button>
        ),
      }),
    );
    const modal = screen.getByRole('dialog', { name: 'Terms' });
    expect(within(modal).getByRole('heading', { name: 'Terms' })).toBeVisible();
    // The dialog's first focusable element is the close button in its header.
    expect(within(modal).getByRole('button', { name: 'Close' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await expect(result).resolves.toEqual({ role: 'confirm', data: { accepted: true } });
    expect(opener).toHaveFocus();
  });

  it('closes with role cancel from its close button', async () => {
    const { controller } = setup();
    const result = present(() =>
      controller.modal({ title: 'Info', render: () => <p>Text</p>, backdropDismiss: false }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await expect(result).resolves.toEqual({ role: 'cancel', data: undefined });
  });

  it('focuses the dialog itself when nothing inside is focusable, and a data-autofocus element first', () => {
    const { controller } = setup();
    void present(() => controller.popover({ title: 'Plain', render: () => <p>Only text</p> }));
    expect(screen.getByRole('dialog', { name: 'Plain' })).toHaveFocus();
    void present(() =>
      controller.modal({ title: 'Form', render: () => <input aria-label="Name" data-autofocus="" /> }),
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
  });

  it('keeps Tab and Shift+Tab inside, wrapping at its ends, and on itself when it has nothing to tab to', async () => {
    const { controller } = setup();
    void present(() =>
      controller.modal({
        title: 'Terms',
        render: () => (
          <>
            <button type="button">Accept</button>
            <button type="button" disabled>
              Later
            </button>
          </>
        ),
      }),
    );
    const close = screen.getByRole('button', { name: 'Close' });
    const accept = screen.getByRole('button', { name: 'Accept' });
    expect(close).toHaveFocus();
    await userEvent.tab();
    expect(accept).toHaveFocus();
    // The last stop (the disabled button is none): on to the first, not to the page or the browser.
    await userEvent.tab();
    expect(close).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(accept).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(close).toHaveFocus();

    void present(() => controller.popover({ title: 'Plain', render: () => <p>Only text</p> }));
    const plain = screen.getByRole('dialog', { name: 'Plain' });
    expect(plain).toHaveFocus();
    await userEvent.tab();
    expect(plain).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(plain).toHaveFocus();
  });

  it('follows the browser when it closes the dialog without a cancel event, or reopens it when that is not allowed', async () => {
    const { controller } = setup();
    const locked = present(() => controller.modal({ title: 'Locked', render: () => null, backdropDismiss: false }));
    const lockedDialog = dialogNamed('Locked');
    await act(async () => {
      lockedDialog.close();
      await nextTask();
    });
    expect(lockedDialog).toHaveAttribute('open');

    const free = present(() => controller.modal({ title: 'Free', render: () => null }));
    await act(async () => {
      dialogNamed('Free').close();
      await nextTask();
    });
    await expect(free).resolves.toEqual({ role: 'backdrop', data: undefined });
    expect(controller.getSnapshot()).toHaveLength(1);
    void locked;
  });
});

describe('OverlayHost: popover', () => {
  it('is a labelled dialog placed next to its anchor and resolves via dismiss', async () => {
    const { controller, opener } = setup();
    const result = present(() =>
      controller.popover({
        title: 'Sort by',
        anchor: opener,
        render: (dismiss) => (
          <button type="button" onClick={() => dismiss('date', 'select')}>
            Date
          </button>
        ),
      }),
    );
    const popover = screen.getByRole('dialog', { name: 'Sort by' });
    expect(popover).toHaveClass('sg-popover--anchored');
    expect(popover.style.getPropertyValue('--sg-popover-block-start')).toMatch(/px$/);
    expect(popover.style.getPropertyValue('--sg-popover-inline-start')).toMatch(/px$/);
    expect(screen.getByRole('button', { name: 'Date' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Date' }));
    await expect(result).resolves.toEqual({ role: 'select', data: 'date' });
    expect(opener).toHaveFocus();
  });
});

describe('OverlayHost: stacking', () => {
  it('stacks in presentation order; Escape and backdrop clicks only close the top one', async () => {
    const { controller, opener } = setup();
    const modal = present(() =>
      controller.modal({
        title: 'Edit',
        render: () => <button type="button">Delete</button>,
      }),
    );
    const modalDialog = screen.getByRole('dialog', { name: 'Edit' });
    const deleteButton = within(modalDialog).getByRole('button', { name: 'Delete' });
    deleteButton.focus();
    const alert = present(() => controller.alert({ header: 'Sure?' }));
    const alertDialog = screen.getByRole('alertdialog', { name: 'Sure?' });

    expect(topLayer.elements.filter((element) => element.tagName === 'DIALOG')).toEqual([modalDialog, alertDialog]);

    // Even an event that reaches the lower dialog acts on the top one only.
    escape(modalDialog);
    await expect(alert).resolves.toEqual({ role: 'backdrop', data: undefined });
    expect(modalDialog).toHaveAttribute('open');
    expect(deleteButton).toHaveFocus();

    clickBackdrop(modalDialog);
    await expect(modal).resolves.toEqual({ role: 'backdrop', data: undefined });
    expect(dialogs()).toHaveLength(0);
    expect(opener).toHaveFocus();
  });
});

describe('OverlayHost: toast', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('always renders a polite, atomic status region in a manual popover', () => {
    setup();
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveAttribute('aria-atomic', 'true');
    expect(region).toHaveAttribute('popover', 'manual');
    expect(region).toBeEmptyDOMElement();
    expect(topLayer.elements).toEqual([region]);
  });

  it('shows the toast inside the region without taking focus and times out with role timeout', async () => {
    const { controller, opener } = setup();
    const result = present(() => controller.toast({ message: 'Card saved', duration: 2000 }));
    const region = screen.getByRole('status');
    expect(within(region).getByText('Card saved')).toBeInTheDocument();
    expect(opener).toHaveFocus();

    act(() => {
      jest.advanceTimersByTime(2000);
    });
    await expect(result).resolves.toEqual({ role: 'timeout', data: undefined });
    expect(within(region).queryByText('Card saved')).not.toBeInTheDocument();
  });

  it('resolves with a toast button role and data', async () => {
    const { controller } = setup();
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const result = present(() =>
      controller.toast({ message: 'Deleted', duration: 0, buttons: [{ text: 'Undo', role: 'undo', data: 1 }] }),
    );
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await expect(result).resolves.toEqual({ role: 'undo', data: 1 });
  });

  it('rides inside the topmost dialog, above it in the top layer, without taking focus there', async () => {
    const { controller } = setup();
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const toast = present(() =>
      controller.toast({ message: 'Saved', duration: 0, buttons: [{ text: 'Undo', role: 'undo' }] }),
    );
    void present(() => controller.modal({ title: 'Lower', render: () => null }));
    void present(() => controller.alert({ header: 'Upper', buttons: [] }));

    const upper = screen.getByRole('dialog', { name: 'Upper' });
    const region = screen.getByRole('status');
    expect(upper).toContainElement(region);
    expect(topLayer.elements).toEqual([dialogNamed('Lower'), upper, region]);
    // A button-less alert focuses itself, not the toast's button.
    expect(upper).toHaveFocus();

    act(() => {
      controller.dismissTop('cancel');
    });
    const lower = dialogNamed('Lower');
    const moved = screen.getByRole('status');
    expect(lower).toContainElement(moved);
    expect(topLayer.elements).toEqual([lower, moved]);

    await user.click(within(moved).getByRole('button', { name: 'Undo' }));
    await expect(toast).resolves.toEqual({ role: 'undo', data: undefined });
    expect(lower).toHaveAttribute('open');

    act(() => {
      controller.dismissTop('cancel');
    });
    expect(dialogs()).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
  });
});

describe('OverlayHost: StrictMode (development)', () => {
  it('keeps a dialog open when its effect is run twice: the first close event arrives after it reopened', async () => {
    const controller = createOverlayController();
    render(
      <StrictMode>
        <OverlayHost controller={controller} labels={labels} />
      </StrictMode>,
    );
    const result = present(() => controller.alert({ header: 'Still here?' }));
    await act(nextTask);
    expect(screen.getByRole('alertdialog', { name: 'Still here?' })).toHaveAttribute('open');
    expect(controller.getSnapshot()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(result).resolves.toMatchObject({ role: 'confirm' });
  });
});
