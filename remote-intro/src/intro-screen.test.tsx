import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ar from '../public/assets/i18n/ar.json';
import en from '../public/assets/i18n/en.json';
import fr from '../public/assets/i18n/fr.json';
import { IntroScreen } from './intro-screen';

const resources = { en: { intro: en }, fr: { intro: fr }, ar: { intro: ar } };

function renderIntro(shell = createTestShell()) {
  return renderWithShell(<IntroScreen />, { shell, resources });
}

describe('IntroScreen', () => {
  it('presents the brand, the headline and the three benefits in English', () => {
    renderIntro();
    expect(screen.getByRole('heading', { level: 1, name: 'Special Gift' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: en.headline })).toBeInTheDocument();
    expect(screen.getByText(en.lead)).toBeInTheDocument();

    const benefits = screen.getByRole('list', { name: en.benefitsLabel });
    const items = within(benefits).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading', { level: 3 }).textContent)).toEqual([
      en.benefits.instant.title,
      en.benefits.anywhere.title,
      en.benefits.secure.title,
    ]);
    expect(items[1]).toHaveTextContent(en.benefits.anywhere.text);
  });

  it('goes forward to the sign-up screen on "Get started"', async () => {
    const { navigation } = renderIntro();
    await userEvent.click(screen.getByRole('button', { name: 'Get started' }));
    expect(navigation.forward).toHaveBeenCalledTimes(1);
    expect(navigation.forward).toHaveBeenCalledWith('/sign-up');
  });

  it('names the current language on the language button', () => {
    renderIntro(createTestShell({ language: 'fr' }));
    expect(screen.getByRole('button', { name: 'Langue : Français' })).toHaveTextContent('FR');
    expect(screen.getByRole('heading', { level: 2, name: fr.headline })).toBeInTheDocument();
  });

  it('lists every language, each named in itself, in an action sheet with the current one ticked', async () => {
    renderIntro();
    await userEvent.click(screen.getByRole('button', { name: 'Language: English' }));

    const sheet = screen.getByRole('dialog', { name: 'Choose your language' });
    expect(
      within(sheet)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['English ✓', 'Français', 'العربية', 'Cancel']);
  });

  it('switches the language through the shell when another one is chosen', async () => {
    const { i18n } = renderIntro();
    await userEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    await userEvent.click(screen.getByRole('button', { name: 'العربية' }));

    expect(i18n.changeLanguage).toHaveBeenCalledTimes(1);
    expect(i18n.changeLanguage).toHaveBeenCalledWith('ar');
    expect(await screen.findByRole('heading', { level: 2, name: ar.headline })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'اللغة: العربية' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('changes nothing when the current language is chosen or the sheet is cancelled', async () => {
    const { i18n } = renderIntro(createTestShell({ language: 'fr' }));
    await userEvent.click(screen.getByRole('button', { name: 'Langue : Français' }));
    await userEvent.click(screen.getByRole('button', { name: 'Français ✓' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Langue : Français' }));
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    expect(i18n.changeLanguage).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 2, name: fr.headline })).toBeInTheDocument();
  });
});
