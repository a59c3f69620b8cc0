import type { Language } from '@special-gift/shared';
import { chooseLanguage, LANGUAGE_COOKIE, textDirection } from '@special-gift/shared/composition';
import './startup-failure.css';

/**
 * The message shown when the app cannot start (config, storage or code failed to load). It must
 * work before React, i18n or the federated share loads, so it is plain DOM with its own few texts.
 */
const TEXTS: Record<Language, { title: string; message: string; retry: string }> = {
  en: { title: 'Special Gift could not start', message: 'Check your connection, then try again.', retry: 'Try again' },
  fr: {
    title: 'Special Gift n’a pas pu démarrer',
    message: 'Vérifiez votre connexion, puis réessayez.',
    retry: 'Réessayer',
  },
  ar: { title: 'تعذّر تشغيل Special Gift', message: 'تحقّق من اتصالك ثم أعد المحاولة.', retry: 'إعادة المحاولة' },
};

/** The stored choice as the page's cookie mirrors it (storage itself may be what failed). */
const chosenLanguage = () => new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];

export function showStartupFailure(
  root: HTMLElement,
  retry: () => void,
  languages: readonly string[] = navigator.languages,
): void {
  // The app's language rule; the runtime config's default may be what could not be read.
  const lang = chooseLanguage(chosenLanguage(), languages, 'en');
  const texts = TEXTS[lang];
  document.documentElement.lang = lang;
  document.documentElement.dir = textDirection(lang);

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
