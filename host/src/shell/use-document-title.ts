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
