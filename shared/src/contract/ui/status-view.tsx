import type { ReactNode } from 'react';

/** A centred message with an optional action: loading, empty and error states. */
export function StatusView({
  title,
  message,
  action,
  busy = false,
  role,
}: {
  title: string;
  message?: ReactNode;
  action?: ReactNode;
  busy?: boolean;
  role?: 'alert' | 'status';
}) {
  return (
    <div className="sg-status-view" role={role} aria-busy={busy || undefined}>
      {busy ? <span className="sg-spinner" aria-hidden="true" /> : null}
      <h2 className="sg-status-view__title">{title}</h2>
      {message ? <p className="sg-status-view__message">{message}</p> : null}
      {action ? <div className="sg-status-view__action">{action}</div> : null}
    </div>
  );
}
