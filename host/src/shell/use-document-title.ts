import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets `<title>` to "<page> · <app>", so each screen is announced and bookmarked by name. */
export function useDocumentTitle(pageTitle: string) {
  const { t } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${appName}` : appName;
  }, [pageTitle, appName]);
}

/**
 * A remote's screen is named by its own texts (`documentTitle` in its namespace), so a team names its
 * screen without the host; the app's name alone until those texts are in.
 */
export function useScreenTitle(namespace: string) {
  const { t } = useTranslation();
  useDocumentTitle(t('documentTitle', { ns: namespace, defaultValue: '' }));
}
