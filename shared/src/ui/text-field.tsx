import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id?: string;
  label: string;
  /** Shown under the field and announced; marks the input invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Extra content after the label, e.g. a "Where is my card code?" link. */
  labelAddon?: ReactNode;
}

export function TextField({ id, label, error, hint, labelAddon, className, ...inputProps }: TextFieldProps) {
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
      <input {...inputProps} id={inputId} className="sg-field__input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint ? (
        <p id={hintId} className="sg-field__hint">
          {hint}
        </p>
      ) : null}
      {/* Always rendered so screen readers announce the error when it appears. */}
      <p id={errorId} className="sg-field__error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}
