import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldError } from './field-error';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  id?: string;
  label: ReactNode;
  error?: string | undefined;
  /** Announce the error when it appears (default); see {@link FieldError}. */
  announceError?: boolean | undefined;
}

export function CheckboxField({ id, label, error, announceError, className, ...inputProps }: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <div className={['sg-checkbox', error ? 'sg-field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <div className="sg-checkbox__row">
        <input
          {...inputProps}
          type="checkbox"
          id={inputId}
          className="sg-checkbox__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label className="sg-checkbox__label" htmlFor={inputId}>
          {label}
        </label>
      </div>
      <FieldError id={errorId} error={error} live={announceError} />
    </div>
  );
}
