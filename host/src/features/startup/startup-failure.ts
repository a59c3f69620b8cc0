import './startup-failure.css';

/**
 * The message shown when the app cannot start (config, storage or code failed to load). It must
 * work before React, i18n or any shared module loads, so it is plain DOM with its own few texts.
 */
const TEXTS = {
  en: { title: 'Special Gift could not start', message: 'Check your connection, then try again.', retry: 'Try again' },
  fr: { title: 'Special Gift n’a pas pu démarrer', message: 'Vérifiez votre connexion, puis réessayez.', retry: 'Réessayer' },
  ar: { title: 'تعذّر تشغيل Special Gift', message: 'تحقّق من اتصالك ثم أعد المحاولة.', retry: 'إعادة المحاولة' },
} as const;

type Lang = keyof typeof TEXTS;

function pickLanguage(languages: readonly string[]): Lang {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'en' || primary === 'fr' || primary === 'ar') return primary;
  }
  return 'en';
}

export function showStartupFailure(root: HTMLElement, retry: () => void, languages: readonly string[] = navigator.languages): void {
  const lang = pickLanguage(languages);
  const texts = TEXTS[lang];
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';

  const section = document.createElement('section');
  section.className = 'sg-startup-failure';
  section.setAttribute('role', 'alert');
  const title = document.createElement('h1');
  title.textContent = texts.title;
  const message = document.createElement('p');
  message.textContent = texts.message;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'sg-startup-failure__retry';
  button.textContent = texts.retry;
  button.addEventListener('click', retry, { once: true });
  section.append(title, message, button);
  root.replaceChildren(section);
  button.focus();
}
