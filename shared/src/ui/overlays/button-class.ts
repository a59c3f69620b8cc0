import type { OverlayButton } from '../../contract/overlays';

/** `sg-overlay__button <base>` plus a `--cancel` / `--destructive` modifier; the role is styling only here. */
export function buttonClass(base: string, button: OverlayButton): string {
  const modifier = button.role === 'cancel' || button.role === 'destructive' ? ` ${base}--${button.role}` : '';
  return `sg-overlay__button ${base}${modifier}`;
}
