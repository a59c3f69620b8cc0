import { useTranslation } from '@special-gift/shared';

/** Where the 16-digit code is printed, with a sketch of the back of the card. */
export function CardCodeHelp() {
  const { t } = useTranslation('signup');
  return (
    <div className="signup-card-help">
      <svg viewBox="0 0 240 150" width="200" aria-hidden="true" focusable="false">
        <rect x="2" y="2" width="236" height="146" rx="14" fill="#efe9ff" stroke="#5b2bd6" strokeWidth="3" />
        <rect x="2" y="24" width="236" height="26" fill="#1c1b22" />
        <rect x="20" y="92" width="200" height="26" rx="6" fill="#fff" stroke="#e0457b" strokeWidth="3" />
        <text x="120" y="110" textAnchor="middle" fontFamily="ui-monospace, monospace" fontSize="14" fill="#1c1b22">
          1234 5678 9012 3456
        </text>
      </svg>
      <p>{t('cardHelp.text')}</p>
    </div>
  );
}
