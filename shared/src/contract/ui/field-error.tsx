export interface FieldErrorProps {
  id: string;
  error?: string | undefined;
  /**
   * Announce the message when it appears (a polite live region). The form turns this off while it
   * moves focus to an invalid field itself: that field's description already reads its message,
   * and every other message is read when its field is reached, so each is heard once, in order.
   */
  live?: boolean | undefined;
}

/**
 * A field's error message. A warning icon leads it, so an error differs from a hint in shape, not
 * only in colour (the icon is drawn in the text colour and survives forced-colours mode). The icon
 * is hidden from assistive technologies: they already hear "invalid" from the field's aria-invalid.
 */
export function FieldError({ id, error, live = true }: FieldErrorProps) {
  return (
    // Always rendered, so a live region exists before the message appears.
    <p id={id} className="sg-field__error" aria-live={live ? 'polite' : 'off'}>
      {error ? (
        <>
          <svg className="sg-field__error-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2.5" />
            <path d="M12 6.5v7" stroke="currentColor" strokeWidth="2.75" strokeLinecap="round" />
            <circle cx="12" cy="17.5" r="1.6" fill="currentColor" />
          </svg>
          {error}
        </>
      ) : null}
    </p>
  );
}
