import { useId } from 'react';
import type { OverlayButton } from '../../contract/overlays';
import { OverlayButtonView } from './overlay-button';
import type { DialogProps } from './dialog-props';
import { useButtonPress } from './use-button-press';
import { useOverlayDialog } from './use-native-dialog';

export function AlertDialog({ entry, labels, onBackdrop, toastRegion }: DialogProps<'alert'>) {
  const { header, subHeader, message, backdropDismiss = true } = entry.options;
  const buttons: readonly OverlayButton[] = entry.options.buttons ?? [{ text: labels.ok, role: 'confirm' }];
  const id = useId();
  const headerId = `${id}-header`;
  const messageId = `${id}-message`;

  const ref = useOverlayDialog(entry, { initialFocus: 'button', backdropDismiss, onBackdrop });
  const press = useButtonPress(entry.dismiss);

  return (
    <dialog
      ref={ref}
      className="sg-overlay sg-alert"
      // `alertdialog` needs something to respond to; <dialog> allows no `alert` role, so a button-less alert stays a dialog.
      role={buttons.length > 0 ? 'alertdialog' : undefined}
      aria-labelledby={headerId}
      aria-describedby={message ? messageId : undefined}
      tabIndex={-1}
    >
      <div className="sg-overlay__surface sg-alert__surface">
        <h2 id={headerId} className="sg-alert__header">
          {header}
        </h2>
        {subHeader ? <p className="sg-alert__sub-header">{subHeader}</p> : null}
        {message ? (
          <p id={messageId} className="sg-alert__message">
            {message}
          </p>
        ) : null}
        {buttons.length > 0 ? (
          <div className={`sg-alert__buttons${buttons.length > 2 ? ' sg-alert__buttons--stacked' : ''}`}>
            {buttons.map((button, index) => (
              <OverlayButtonView key={index} base="sg-alert__button" button={button} onPress={press} />
            ))}
          </div>
        ) : null}
      </div>
      {toastRegion}
    </dialog>
  );
}
