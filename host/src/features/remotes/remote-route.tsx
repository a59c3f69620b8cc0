import { Button, StatusView, type RemoteScreenModule } from '@special-gift/shared';
import { Suspense, use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../shell/host-services';
import { useDocumentTitle } from '../../shell/use-document-title';
import type { RemoteName } from '../../config/runtime-config';
import { PrerenderedRoute } from './prerendered-route';
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
  titleKey: string;
}

/** One route's remote screen, with its loading state and its own error screen and retry. */
export function RemoteRoute(props: RemoteRouteProps) {
  const { prerendered } = useHostServices();
  // The page may have come with this route's screen already rendered (see PrerenderedRoute).
  const screen = prerendered.claim(props.name);
  if (screen) {
    return <PrerenderedRoute key={props.name} screen={screen} titleKey={props.titleKey} renderOnClient={(failedLoad) => <RemoteRouteAttempts {...props} initialLoading={failedLoad} />} />;
  }
  // Keyed by remote: two routes' elements share this component type and position, so without the
  // key a route change could keep the previous remote's load.
  return <RemoteRouteAttempts key={props.name} {...props} />;
}

function RemoteRouteAttempts({ name, titleKey, initialLoading }: RemoteRouteProps & { initialLoading?: Promise<RemoteScreenModule> }) {
  const { t } = useTranslation();
  useDocumentTitle(t(titleKey));
  const { remoteScreens } = useHostServices();
  // One load per attempt, held here (this component stays mounted while the screen suspends), so a
  // failure shows the error screen once instead of re-rendering into a new load. Try again (on the
  // error screen, or while a slow load is still under way) starts a fresh attempt at once.
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
