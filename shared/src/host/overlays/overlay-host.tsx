import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import { ActionSheetDialog } from './action-sheet-dialog';
import { AlertDialog } from './alert-dialog';
import { ModalDialog } from './modal-dialog';
import type { DialogEntry, OverlayController, OverlayEntry, OverlayLabels, ToastEntry } from './overlay-types';
import { PopoverDialog } from './popover-dialog';
import { ToastRegion } from './toast-region';

export interface OverlayHostProps {
  readonly controller: OverlayController;
  readonly labels: OverlayLabels;
}

/**
 * Renders the controller's stack: dialogs in presentation order (each showModal() stacks on the
 * last), and the toast region inside the topmost dialog, or on its own when no dialog is open.
 */
export function OverlayHost({ controller, labels }: OverlayHostProps) {
  const entries = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  const onBackdrop = useCallback(() => {
    controller.dismissTop('backdrop');
  }, [controller]);

  const dialogs = entries.filter(isDialog);
  const top = dialogs.at(-1);
  const toastRegion = <ToastRegion toasts={entries.filter(isToast)} />;

  return (
    <>
      {dialogs.map((entry) => renderDialog(entry, labels, onBackdrop, entry === top ? toastRegion : undefined))}
      {top ? null : toastRegion}
    </>
  );
}

function renderDialog(entry: DialogEntry, labels: OverlayLabels, onBackdrop: () => void, toastRegion: ReactNode) {
  const props = { labels, onBackdrop, toastRegion };
  switch (entry.kind) {
    case 'alert':
      return <AlertDialog key={entry.id} entry={entry} {...props} />;
    case 'actionSheet':
      return <ActionSheetDialog key={entry.id} entry={entry} {...props} />;
    case 'modal':
      return <ModalDialog key={entry.id} entry={entry} {...props} />;
    case 'popover':
      return <PopoverDialog key={entry.id} entry={entry} {...props} />;
  }
}

const isDialog = (entry: OverlayEntry): entry is DialogEntry => entry.kind !== 'toast';
const isToast = (entry: OverlayEntry): entry is ToastEntry => entry.kind === 'toast';
