import { StatusView, type RemoteScreenModule } from '@special-gift/shared';
import { Suspense, use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../app/host-services';
import { useDocumentTitle } from '../../app/use-document-title';
import type { RemoteName } from '../../config/runtime-config';
import { RemoteErrorBoundary } from './remote-error-boundary';

function RemoteScreen({ name, loading }: { name: RemoteName; loading: Promise<RemoteScreenModule> }) {
  const { remoteScreens, onFirstScreenRendered } = useHostServices();
  // A preloaded screen renders at once; otherwise suspend until its code and texts arrive.
  const module = remoteScreens.peek(name) ?? use(loading);
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

/** One route's remote screen, with its loading state and its own error screen and retry. */
export function RemoteRoute({ name, titleKey }: { name: RemoteName; titleKey: string }) {
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
        <RemoteScreen name={name} loading={attempt.loading} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
