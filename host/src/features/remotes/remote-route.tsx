import { StatusView } from '@special-gift/shared';
import { Suspense, use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../app/host-services';
import { useDocumentTitle } from '../../app/use-document-title';
import type { RemoteName } from '../../config/runtime-config';
import { RemoteErrorBoundary } from './remote-error-boundary';

function RemoteScreen({ name }: { name: RemoteName }) {
  const { remoteScreens, onFirstScreenRendered } = useHostServices();
  // A preloaded screen renders at once; otherwise suspend until its code and texts arrive.
  const module = remoteScreens.peek(name) ?? use(remoteScreens.load(name));
  useEffect(onFirstScreenRendered, [onFirstScreenRendered]);
  const Screen = module.default;
  return <Screen />;
}

function ScreenLoading() {
  const { t } = useTranslation();
  return <StatusView title={t('loading')} busy role="status" />;
}

/** One route's remote screen, with its loading state and its own error screen and retry. */
export function RemoteRoute({ name, titleKey }: { name: RemoteName; titleKey: string }) {
  const { t } = useTranslation();
  useDocumentTitle(t(titleKey));
  // Remounting the boundary (a new key) is the retry: the failed load is not cached.
  const [attempt, setAttempt] = useState(0);
  return (
    <RemoteErrorBoundary key={attempt} remote={name} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<ScreenLoading />}>
        <RemoteScreen name={name} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
