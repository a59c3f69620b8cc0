import { Button, useTranslation } from '@special-gift/shared';

const SECTIONS = ['card', 'data', 'contact'] as const;

/** The terms shown in the modal; "I agree" closes it and ticks the consent box. */
export function TermsContent({ onAccept }: { onAccept: () => void }) {
  const { t } = useTranslation('signup');
  return (
    <div className="signup-terms">
      {SECTIONS.map((section) => (
        <section key={section}>
          <h3 className="signup-terms__heading">{t(`terms.${section}.title`)}</h3>
          <p>{t(`terms.${section}.text`)}</p>
        </section>
      ))}
      <Button expand onClick={onAccept}>
        {t('terms.accept')}
      </Button>
    </div>
  );
}
