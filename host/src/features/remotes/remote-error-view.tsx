import { Button, Page, StatusView, useNavigation, useShellConfig } from '@special-gift/shared';
import { missingCodeUrl } from '@special-gift/shared/code-loading';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteLoadError } from '../../services/remotes/remote-load-error';
import { loadCollector } from '../../services/telemetry/load-collector';
import { newBuildAvailable, reloadSoon } from './live-build';

/** The friendly screen shown instead of a remote that could not load or crashed. */
export function RemoteErrorView({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loadFailure = error instanceof RemoteLoadError ? error.reason : null;
  // The remote's code is gone because a new build replaced it: the page is moving to that build.
  const [updating, setUpdating] = useState(false);
  const title = loadFailure ? t('remoteError.title') : t('renderError.title');
  const message = updating
    ? t('remoteError.updating')
    : loadFailure
      ? t(`remoteError.${loadFailure}`)
      : t('renderError.message');
  const atHome = navigation.location().pathname === '/';
  const { apiBase } = useShellConfig();
  // A build that is gone (past its retention, or replaced by an image roll) fails like an outage:
  // if a new build replaced it, the page says so (not the connection) and loads again on it.
  const unavailable = error instanceof RemoteLoadError && error.reason !== 'incompatible' ? error.remote : null;
  const missingUrl = error instanceof RemoteLoadError ? missingCodeUrl(error.cause) : undefined;
  useEffect(() => {
    if (!unavailable) return;
    newBuildAvailable(unavailable, apiBase, missingUrl)
      .then(async (moving) => {
        if (!moving) return;
        setUpdating(true);
        await reloadSoon();
      })
      .catch(() => undefined);
  }, [unavailable, apiBase, missingUrl]);
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
