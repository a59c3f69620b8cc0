import type { OverlayButton } from '../../contract/overlays';

/**
 * A button of an alert, action sheet or toast: `sg-overlay__button <base>` plus a `--cancel` /
 * `--destructive` modifier (the role is styling only here; `onPress` applies Ionic's rules).
 */
export function OverlayButtonView({
  base,
  button,
  onPress,
}: {
  base: string;
  button: OverlayButton;
  onPress: (button: OverlayButton) => Promise<void>;
}) {
  const modifier = button.role === 'cancel' || button.role === 'destructive' ? ` ${base}--${button.role}` : '';
  return (
    <button type="button" className={`sg-overlay__button ${base}${modifier}`} onClick={() => void onPress(button)}>
      {button.text}
    </button>
  );
}
