import type { ButtonHTMLAttributes, MouseEvent } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'text';
  /** Shows a spinner and ignores clicks, e.g. while a request is in flight. */
  busy?: boolean;
  expand?: boolean;
}

/**
 * A busy button stays focusable (aria-disabled, not disabled): disabling the focused button would
 * drop focus to <body>, and an alert opened meanwhile could not give it back.
 */
export function Button({
  variant = 'primary',
  busy = false,
  expand = false,
  className,
  onClick,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = [
    'sg-button',
    `sg-button--${variant}`,
    expand ? 'sg-button--expand' : '',
    busy ? 'sg-button--busy' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault(); // also stops a busy submit button from submitting its form
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      onClick={click}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
    >
      {busy ? <span className="sg-spinner sg-spinner--inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
