import { Button, Page, StatusView, useNavigation, useShellConfig } from '@special-gift/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteLoadError } from '../../services/remotes/remote-load-error';
import { loadCollector } from '../../services/telemetry/load-collector';
import { reloadOntoLiveBuild } from './live-build';

/** The friendly screen shown instead of a remote that could not load or crashed. */
export function RemoteErrorView({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loadFailure = error instanceof RemoteLoadError ? error.reason : null;
  const title = loadFailure ? t('remoteError.title') : t('renderError.title');
  const message = loadFailure ? t(`remoteError.${loadFailure}`) : t('renderError.message');
  const atHome = navigation.location().pathname === '/';
  const { apiBase } = useShellConfig();
  // A build that is gone (past its retention) fails like an outage: if a release moved the remote
  // on, the page loads again on the live build instead.
  const unavailable = error instanceof RemoteLoadError && error.reason !== 'incompatible' ? error.remote : null;
  useEffect(() => {
    if (unavailable) reloadOntoLiveBuild(unavailable, apiBase).catch(() => undefined);
  }, [unavailable, apiBase]);
  // An error screen settles the page as a screen would: the failure is reported from here on.
  useEffect(loadCollector, []);
  // A remote that loaded but is incompatible has its container initialised in this page, and the
  // federation runtime cannot swap it: only a reload picks up the fixed deployment. Any other
  // failure retries in place.
  const retry = loadFailure === 'incompatible' ? () => window.location.reload() : onRetry;
  return (
    <Page title={t('app.name')}>
      <StatusView
        role="alert"
        title={title}
        message={message}
        action={
          <>
            <Button onClick={retry}>{t('actions.tryAgain')}</Button>
            {atHome ? null : (
              <Button variant="text" onClick={() => navigation.root('/')}>
                {t('actions.goHome')}
              </Button>
            )}
          </>
        }
      />
    </Page>
  );
}
