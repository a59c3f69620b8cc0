import { Button, StatusView, type RemoteScreenModule } from '@special-gift/shared';
import { Suspense, use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../shell/host-services';
import { useScreenTitle } from '../../shell/use-document-title';
import type { RemoteName } from '../../config/runtime-config';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { SLOW_NOTICE_MS } from '../../services/remotes/remote-screens';

function RemoteScreen({ loading }: { loading: Promise<RemoteScreenModule> }) {
  const { onFirstScreenRendered } = useHostServices();
  // Suspends until the screen's code and texts arrive; a preloaded screen renders at once.
  const module = use(loading);
  useEffect(onFirstScreenRendered, [onFirstScreenRendered]);
  const Screen = module.default;
  return <Screen />;
}

/** The loading state; past SLOW_NOTICE_MS it says the wait is unusual and offers a fresh attempt, while still waiting. */
function ScreenLoading({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_NOTICE_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <main className="sg-page__content">
      {slow ? (
        <StatusView
          title={t('slowLoading.title')}
          message={t('slowLoading.message')}
          busy
          role="status"
          action={<Button onClick={onRetry}>{t('actions.tryAgain')}</Button>}
        />
      ) : (
        <StatusView title={t('loading')} busy role="status" />
      )}
    </main>
  );
}

interface RemoteRouteProps {
  name: RemoteName;
  /** A load already under way (the first screen's, which failed: its error screen shows at once). */
  initialLoading?: Promise<RemoteScreenModule>;
}

/**
 * One route's remote screen, rendered in the browser, with its loading state and its own error
 * screen and retry. One load per attempt, held here (this component stays mounted while the
 * screen suspends), so a failure shows the error screen once instead of re-rendering into a new
 * load. Try again (on the error screen, or while a slow load is still under way) starts a fresh
 * attempt at once.
 */
export function RemoteRoute({ name, initialLoading }: RemoteRouteProps) {
  useScreenTitle(name);
  const { remoteScreens } = useHostServices();
  const [attempt, setAttempt] = useState(() => ({ key: 0, loading: initialLoading ?? remoteScreens.load(name) }));
  const retry = () => setAttempt((current) => ({ key: current.key + 1, loading: remoteScreens.retry(name) }));
  return (
    <RemoteErrorBoundary key={attempt.key} remote={name} onRetry={retry}>
      <Suspense fallback={<ScreenLoading onRetry={retry} />}>
        <RemoteScreen loading={attempt.loading} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
