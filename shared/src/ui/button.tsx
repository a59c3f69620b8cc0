import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'text';
  /** Shows a spinner and blocks clicks, e.g. while a request is in flight. */
  busy?: boolean;
  expand?: boolean;
}

export function Button({ variant = 'primary', busy = false, expand = false, className, disabled, children, type = 'button', ...rest }: ButtonProps) {
  const classes = ['sg-button', `sg-button--${variant}`, expand ? 'sg-button--expand' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className="sg-spinner sg-spinner--inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
