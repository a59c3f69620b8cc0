import { SIGN_UP_RESULT_STORAGE_KEY, type SignUpResult } from '@special-gift/shared';
import { createTestShell, renderWithShell, type TestShell } from '@special-gift/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../public/assets/i18n/en.json';
import { ThankYouScreen } from './thank-you-screen';

const resources = { en: { thankyou: en } };
const result: SignUpResult = {
  firstName: 'Ada',
  email: 'ada@example.com',
  cardLast4: '1111',
  createdAt: '2025-01-02T03:04:05.000Z',
};

function renderThankYou(shell: TestShell = createTestShell()) {
  return renderWithShell(<ThankYouScreen />, { shell, resources });
}

describe('ThankYouScreen', () => {
  it('thanks the user by first name with the card and email of the stored sign-up', async () => {
    renderThankYou(createTestShell({ storage: { [SIGN_UP_RESULT_STORAGE_KEY]: result } }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Thank you, Ada!' })).toBeInTheDocument();
    expect(
      screen.getByText('Your card ending in 1111 is registered. We’ve sent a confirmation to ada@example.com.'),
    ).toBeInTheDocument();
  });

  it('is busy, without a headline, while the sign-up is read', async () => {
    const shell = createTestShell({ storage: { [SIGN_UP_RESULT_STORAGE_KEY]: result } });
    let answer: (value: unknown) => void = () => undefined;
    shell.storage.get.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const { container } = renderThankYou(shell);

    const section = container.querySelector('section');
    expect(section).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();

    answer(result);
    expect(await screen.findByRole('heading', { level: 2, name: 'Thank you, Ada!' })).toBeInTheDocument();
    expect(section).not.toHaveAttribute('aria-busy');
  });

  it('thanks generically when there is no stored sign-up', async () => {
    renderThankYou();
    expect(await screen.findByRole('heading', { level: 2, name: en.headlineGeneric })).toBeInTheDocument();
    expect(screen.getByText(en.leadGeneric)).toBeInTheDocument();
  });

  it('thanks generically when the stored record is not a valid sign-up result', async () => {
    renderThankYou(createTestShell({ storage: { [SIGN_UP_RESULT_STORAGE_KEY]: { firstName: 'Ada', email: 42 } } }));
    expect(await screen.findByRole('heading', { level: 2, name: en.headlineGeneric })).toBeInTheDocument();
    expect(screen.queryByText(/Ada/)).not.toBeInTheDocument();
  });

  it('thanks generically when storage cannot be read', async () => {
    const shell = createTestShell();
    shell.storage.get.mockRejectedValueOnce(new Error('blocked'));
    renderThankYou(shell);
    expect(await screen.findByRole('heading', { level: 2, name: en.headlineGeneric })).toBeInTheDocument();
  });

  it('lists the next steps', async () => {
    renderThankYou();
    await screen.findByRole('heading', { level: 2 });
    expect(screen.getByRole('heading', { level: 3, name: en.next.title })).toBeInTheDocument();
    const steps = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([en.next.email, en.next.activate, en.next.spend]);
  });

  it("links to the provider's site from the config, in a new tab opened safely", async () => {
    renderThankYou(createTestShell({ config: { siteBase: 'https://gifts.example.org' } }));
    await screen.findByRole('heading', { level: 2 });
    const link = screen.getByRole('link', { name: 'Visit the Special Gift website (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://gifts.example.org');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  });

  it('Done forgets the sign-up, then starts a new stack at the intro', async () => {
    const shell = createTestShell({ location: '/thank-you', storage: { [SIGN_UP_RESULT_STORAGE_KEY]: result } });
    renderThankYou(shell);
    await screen.findByRole('heading', { level: 2, name: 'Thank you, Ada!' });

    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/'));
    expect(shell.storage.remove).toHaveBeenCalledWith(SIGN_UP_RESULT_STORAGE_KEY);
    expect(shell.storage.data.has(SIGN_UP_RESULT_STORAGE_KEY)).toBe(false);
    expect(shell.storage.remove.mock.invocationCallOrder[0]).toBeLessThan(
      shell.navigation.root.mock.invocationCallOrder[0] ?? 0,
    );
  });

  it('Done still leaves the flow when the sign-up cannot be removed', async () => {
    const shell = createTestShell({ storage: { [SIGN_UP_RESULT_STORAGE_KEY]: result } });
    shell.storage.remove.mockRejectedValueOnce(new Error('blocked'));
    renderThankYou(shell);
    await screen.findByRole('heading', { level: 2, name: 'Thank you, Ada!' });

    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/'));
  });
});
