import { useId } from 'react';
import type { OverlayButton } from '../../contract/overlays';
import { OverlayButtonView } from './overlay-button';
import type { DialogProps } from './dialog-props';
import { useButtonPress } from './use-button-press';
import { useOverlayDialog } from './use-native-dialog';

export function ActionSheetDialog({ entry, onBackdrop, toastRegion }: DialogProps<'actionSheet'>) {
  const { header, subHeader, buttons, backdropDismiss = true } = entry.options;
  const id = useId();
  const titleId = `${id}-title`;
  const subHeaderId = `${id}-sub-header`;
  // As in Ionic, the cancel button sits apart in its own group at the bottom.
  const cancelButton = buttons.find((button) => button.role === 'cancel');
  const actions = buttons.filter((button) => button !== cancelButton);

  const ref = useOverlayDialog(entry, { initialFocus: 'button', backdropDismiss, onBackdrop });
  const press = useButtonPress(entry.dismiss);

  const renderButton = (button: OverlayButton, key: number) => (
    <OverlayButtonView key={key} base="sg-action-sheet__button" button={button} onPress={press} />
  );

  return (
    <dialog
      ref={ref}
      className="sg-overlay sg-action-sheet"
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={subHeader ? subHeaderId : undefined}
      tabIndex={-1}
    >
      <div className="sg-overlay__surface sg-action-sheet__surface">
        <div className="sg-action-sheet__group">
          <div className="sg-action-sheet__header">
            <h2 id={titleId} className="sg-action-sheet__title">
              {header}
            </h2>
            {subHeader ? (
              <p id={subHeaderId} className="sg-action-sheet__sub-header">
                {subHeader}
              </p>
            ) : null}
          </div>
          {actions.map(renderButton)}
        </div>
        {cancelButton ? (
          <div className="sg-action-sheet__group sg-action-sheet__group--cancel">{renderButton(cancelButton, 0)}</div>
        ) : null}
      </div>
      {toastRegion}
    </dialog>
  );
}
