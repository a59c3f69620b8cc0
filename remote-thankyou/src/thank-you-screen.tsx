import {
  Button,
  Page,
  SIGN_UP_RESULT_STORAGE_KEY,
  useNavigation,
  useShellConfig,
  useStorage,
  useTranslation,
} from '@special-gift/shared';
import { useSignUpResult } from './use-sign-up-result';
import './thank-you-screen.css';

/** Confirms the sign-up by name, says what happens next, and closes the flow with Done. */
export function ThankYouScreen() {
  const { t } = useTranslation('thankyou');
  const navigation = useNavigation();
  const storage = useStorage();
  const config = useShellConfig();
  const result = useSignUpResult();

  const done = async () => {
    // The flow is over: the next visit to this page is a fresh one.
    await storage.remove(SIGN_UP_RESULT_STORAGE_KEY).catch(() => undefined);
    navigation.root('/');
  };

  return (
    <Page
      title={t('title')}
      footer={
        <Button expand onClick={() => void done()}>
          {t('done')}
        </Button>
      }
    >
      <section className="thankyou" aria-busy={result === undefined || undefined}>
        <div className="thankyou__badge" aria-hidden="true">
          <svg viewBox="0 0 48 48" width="48" height="48" focusable="false">
            <path
              d="M14 25l7 7 13-15"
              fill="none"
              stroke="currentColor"
              strokeWidth="4"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </div>
        {result === undefined ? (
          // Holds the place of the thanks while the sign-up is read (the prerendered page shows
          // this), so nothing below moves when it arrives.
          <div className="thankyou__pending" aria-hidden="true">
            <p className="thankyou__headline">{t('headlineGeneric')}</p>
            <p className="thankyou__lead">{t('leadGeneric')}</p>
          </div>
        ) : (
          <>
            <h2 className="thankyou__headline">
              {result ? t('headlineNamed', { name: result.firstName }) : t('headlineGeneric')}
            </h2>
            <p className="thankyou__lead">
              {result ? t('leadNamed', { email: result.email, last4: result.cardLast4 }) : t('leadGeneric')}
            </p>
          </>
        )}
        <h3 className="thankyou__next-title">{t('next.title')}</h3>
        <ol className="thankyou__steps">
          <li>{t('next.email')}</li>
          <li>{t('next.activate')}</li>
          <li>{t('next.spend')}</li>
        </ol>
        {/* The site's address is the deployment's (runtime config): not in the prerendered page. */}
        <p className="thankyou__site-line">
          {result === undefined ? null : (
            <a className="thankyou__site" href={config.siteBase} target="_blank" rel="noopener noreferrer">
              {t('site')}
              <span className="sg-visually-hidden"> {t('opensInNewTab')}</span>
            </a>
          )}
        </p>
      </section>
    </Page>
  );
}
