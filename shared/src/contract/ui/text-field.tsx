import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldError } from './field-error';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id?: string;
  label: string;
  /** Shown under the field and announced; marks the input invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Extra content after the label, e.g. a "Where is my card code?" link. */
  labelAddon?: ReactNode;
  /** Announce the error when it appears (default); see {@link FieldError}. */
  announceError?: boolean | undefined;
}

export function TextField({
  id,
  label,
  error,
  hint,
  labelAddon,
  announceError,
  className,
  ...inputProps
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = `${inputId}-error`;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['sg-field', error ? 'sg-field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <div className="sg-field__label-row">
        <label className="sg-field__label" htmlFor={inputId}>
          {label}
        </label>
        {labelAddon}
      </div>
      <input
        {...inputProps}
        id={inputId}
        className="sg-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={hintId} className="sg-field__hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} error={error} live={announceError} />
    </div>
  );
}
