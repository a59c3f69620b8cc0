import { useShellLocation, useNavigation } from '../react/shell-context';

export interface BackButtonProps {
  /** Where to go when there is no in-app entry to go back to. */
  defaultHref?: string;
  /** Translated accessible text, e.g. "Back". */
  label: string;
}

/** Ionic's back button: back when possible, else to `defaultHref`, hidden when it can do neither. */
export function BackButton({ defaultHref, label }: BackButtonProps) {
  const navigation = useNavigation();
  useShellLocation(); // re-render when the stack changes
  if (!navigation.canGoBack() && defaultHref === undefined) return null;
  return (
    <button type="button" className="sg-header-button sg-back-button" onClick={() => navigation.back(defaultHref)}>
      <svg className="sg-back-button__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M15.5 4.5 8 12l7.5 7.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="sg-back-button__text">{label}</span>
    </button>
  );
}
