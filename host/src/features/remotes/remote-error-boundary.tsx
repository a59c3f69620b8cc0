import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RemoteLoadError } from '../../services/remotes/remote-load-error';
import { recordSignal } from '../../services/telemetry/signals';
import { RemoteErrorView } from './remote-error-view';

interface Props {
  remote: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a remote that fails to load or throws while rendering; the rest of the app keeps working. */
export class RemoteErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`[remote:${this.props.remote}]`, error, info.componentStack);
    // A failed load is recorded where it failed (remote-screens); this is the screen's own error.
    if (!(error instanceof RemoteLoadError)) recordSignal({ kind: 'render_error', remote: this.props.remote, error });
  }

  override render() {
    if (this.state.error !== null) return <RemoteErrorView error={this.state.error} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}
