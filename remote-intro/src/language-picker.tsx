import { isCancelRole, useOverlays, useShellI18n, useTranslation, type Language } from '@special-gift/shared';

/** Each language is named in itself, so a reader finds theirs whatever is shown now. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français', ar: 'العربية' };

/** Header button that opens an action sheet of the supported languages. */
export function LanguagePicker() {
  const { t } = useTranslation('intro');
  const overlays = useOverlays();
  const i18n = useShellI18n();
  const current = i18n.current();

  const choose = async () => {
    const result = await overlays.actionSheet({
      header: t('language.title'),
      buttons: [
        ...i18n.languages.map((language) => ({
          text: language === current ? `${LANGUAGE_NAMES[language]} ✓` : LANGUAGE_NAMES[language],
          data: language,
        })),
        { text: t('language.cancel'), role: 'cancel' as const },
      ],
    });
    const picked = result.data as Language | undefined;
    if (!isCancelRole(result.role) && picked && picked !== current) {
      // The screen switches even if remembering the choice fails; say so rather than fail silently.
      await i18n
        .changeLanguage(picked)
        .catch((error: unknown) => console.warn('[language] the choice could not be stored', error));
    }
  };

  return (
    <button type="button" className="sg-header-button intro-language" onClick={() => void choose()}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path
          d="M3 12h18M12 3c2.8 3 2.8 15 0 18M12 3c-2.8 3-2.8 15 0 18"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        />
      </svg>
      {/* The visible code is short; screen readers get the full "Language: English". */}
      <span className="intro-language__code" aria-hidden="true">
        {current.toUpperCase()}
      </span>
      <span className="sg-visually-hidden">{t('language.button', { language: LANGUAGE_NAMES[current] })}</span>
    </button>
  );
}
