import { StatusView, type RemoteScreenModule } from '@special-gift/shared';
import { Suspense, use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../app/host-services';
import { useDocumentTitle } from '../../app/use-document-title';
import type { RemoteName } from '../../config/runtime-config';
import { RemoteErrorBoundary } from './remote-error-boundary';

function RemoteScreen({ loading }: { loading: Promise<RemoteScreenModule> }) {
  const { onFirstScreenRendered } = useHostServices();
  // Suspends until the screen's code and texts arrive; a preloaded screen renders at once.
  const module = use(loading);
  useEffect(onFirstScreenRendered, [onFirstScreenRendered]);
  const Screen = module.default;
  return <Screen />;
}

function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <main className="sg-page__content">
      <StatusView title={t('loading')} busy role="status" />
    </main>
  );
}

interface RemoteRouteProps {
  name: RemoteName;
  titleKey: string;
}

/** One route's remote screen, with its loading state and its own error screen and retry. */
export function RemoteRoute(props: RemoteRouteProps) {
  // Keyed by remote: two routes' elements share this component type and position, so without the
  // key a route change could keep the previous remote's load.
  return <RemoteRouteAttempts key={props.name} {...props} />;
}

function RemoteRouteAttempts({ name, titleKey }: RemoteRouteProps) {
  const { t } = useTranslation();
  useDocumentTitle(t(titleKey));
  const { remoteScreens } = useHostServices();
  // One load per attempt, held here (this component stays mounted while the screen suspends), so a
  // failure shows the error screen once instead of re-rendering into a new load. Try again starts
  // a new attempt; the failed load is not cached, so it really fetches again.
  const [attempt, setAttempt] = useState(() => ({ key: 0, loading: remoteScreens.load(name) }));
  const retry = () => setAttempt((current) => ({ key: current.key + 1, loading: remoteScreens.load(name) }));
  return (
    <RemoteErrorBoundary key={attempt.key} remote={name} onRetry={retry}>
      <Suspense fallback={<ScreenLoading />}>
        <RemoteScreen loading={attempt.loading} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
