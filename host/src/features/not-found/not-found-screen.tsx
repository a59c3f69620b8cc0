import { Button, Page, StatusView, useNavigation } from '@special-gift/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useHostServices } from '../../shell/host-services';
import { useDocumentTitle } from '../../shell/use-document-title';

/** Any path that is not a screen: say so, and offer the way home. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { onFirstScreenRendered } = useHostServices();
  useDocumentTitle(t('titles.notFound'));
  useEffect(onFirstScreenRendered, [onFirstScreenRendered]);
  return (
    <Page title={t('titles.notFound')}>
      <StatusView
        title={t('notFound.title')}
        message={t('notFound.message')}
        action={<Button onClick={() => navigation.root('/')}>{t('actions.goHome')}</Button>}
      />
    </Page>
  );
}
