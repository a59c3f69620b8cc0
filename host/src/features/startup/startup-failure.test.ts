import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { showStartupFailure } from './startup-failure';

function show(languages: readonly string[]) {
  const root = document.createElement('div');
  root.innerHTML = '<p>Loading…</p>';
  document.body.replaceChildren(root);
  const retry = jest.fn();
  showStartupFailure(root, retry, languages);
  return { root, retry, alert: screen.getByRole('alert') };
}

afterEach(() => {
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
});

describe('showStartupFailure', () => {
  it('replaces the root content with an English alert by default', () => {
    const { root, alert } = show(['de-DE']);
    expect(root.children).toHaveLength(1);
    expect(root).toContainElement(alert);
    expect(within(alert).getByRole('heading', { name: 'Special Gift could not start' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Check your connection, then try again.');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('speaks French to a French browser', () => {
    const { alert } = show(['fr-CA', 'en']);
    expect(within(alert).getByRole('heading', { name: 'Special Gift n’a pas pu démarrer' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'fr');
  });

  it('speaks Arabic, right to left, to an Arabic browser', () => {
    const { alert } = show(['AR-eg']);
    expect(within(alert).getByRole('heading', { name: 'تعذّر تشغيل Special Gift' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'إعادة المحاولة' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it("speaks the language the user chose in the app (the page's cookie), over the browser's", () => {
    document.cookie = 'sg_lang=ar; Path=/';
    try {
      const { alert } = show(['fr-FR', 'en']);
      expect(within(alert).getByRole('heading', { name: 'تعذّر تشغيل Special Gift' })).toBeInTheDocument();
      expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    } finally {
      document.cookie = 'sg_lang=; Path=/; Max-Age=0';
    }
  });

  it('focuses the retry button, which calls retry once however often it is pressed', async () => {
    const { retry } = show(['en-GB']);
    const button = screen.getByRole('button', { name: 'Try again' });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('type', 'button');

    await userEvent.click(button);
    await userEvent.click(button);
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
