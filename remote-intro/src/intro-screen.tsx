import { Button, Page, useNavigation, useTranslation } from '@special-gift/shared';
import { HeroIllustration } from './hero-illustration';
import { LanguagePicker } from './language-picker';
import './intro-screen.css';

const BENEFITS = ['instant', 'anywhere', 'secure'] as const;

/** The first screen: what the card is, three reasons to want it, and the way to sign up. */
export function IntroScreen() {
  const { t } = useTranslation('intro');
  const navigation = useNavigation();
  return (
    <Page
      title={t('brand')}
      end={<LanguagePicker />}
      footer={
        <Button expand onClick={() => navigation.forward('/sign-up')}>
          {t('getStarted')}
        </Button>
      }
    >
      <section className="intro-hero" aria-labelledby="intro-headline">
        <HeroIllustration />
        <h2 id="intro-headline" className="intro-hero__headline">
          {t('headline')}
        </h2>
        <p className="intro-hero__lead">{t('lead')}</p>
      </section>
      <ul className="intro-benefits" aria-label={t('benefitsLabel')}>
        {BENEFITS.map((benefit) => (
          <li key={benefit} className="intro-benefit">
            <span className="intro-benefit__mark" aria-hidden="true">
              ✓
            </span>
            <div>
              <h3 className="intro-benefit__title">{t(`benefits.${benefit}.title`)}</h3>
              <p className="intro-benefit__text">{t(`benefits.${benefit}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </Page>
  );
}
