import { SIGN_UP_OUTBOX_EVENT, SIGN_UP_OUTBOX_STORAGE_KEY } from '@special-gift/shared';
import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../public/assets/i18n/en.json';
import { meta } from './exposed-screen';
import { SignUpScreen } from './sign-up-screen';
import { EMPTY_VALUES } from './sign-up-values';

// A host older than the shell's kept sign-up notice: its copy of the federated contract (the one
// the remote gets at runtime) has no KEPT_SIGN_UP_NOTICE.
jest.mock('@special-gift/shared', () => ({
  ...jest.requireActual<Record<string, unknown>>('@special-gift/shared'),
  KEPT_SIGN_UP_NOTICE: undefined,
}));

const resources = { en: { signup: en } };
const body = { ...EMPTY_VALUES, firstName: 'Ada', email: 'ada@example.com', cardCode: '4111 1111 1111 1111' };
const QUEUED_AT = '2026-01-02T03:04:05.000Z';

describe('SignUpScreen on a host without the kept sign-up notice: it tells a refusal or an expiry itself', () => {
  it('declares that it takes the notice\'s "review" (a newer host reads it from meta)', () => {
    expect(meta.handles).toContain('kept-sign-up-review');
  });

  it('refused: told in an alert, its details back in the form, the field at fault focused', async () => {
    const shell = createTestShell();
    const refused = { state: 'refused', body, queuedAt: QUEUED_AT, fields: { cardCode: 'already_registered' } };
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, refused);
    renderWithShell(<SignUpScreen />, { shell, resources });
    const alert = await screen.findByRole('alertdialog', { name: en.failure.title });
    expect(alert).toHaveAccessibleDescription(en.queue.refused);
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(shell.storage.data.has(SIGN_UP_OUTBOX_STORAGE_KEY)).toBe(false);
    await userEvent.click(within(alert).getByRole('button', { name: en.queue.ok }));
    await waitFor(() => expect(screen.getByLabelText('Card code')).toHaveFocus());
  });

  it('expired while the screen is open: told in an alert, nothing kept', async () => {
    const shell = createTestShell();
    renderWithShell(<SignUpScreen />, { shell, resources });
    await screen.findByLabelText('First name');
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, { state: 'expired', queuedAt: QUEUED_AT });
    act(() => void window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state: 'expired' } })));
    const alert = await screen.findByRole('alertdialog', { name: en.queue.expiredTitle });
    expect(alert).toHaveAccessibleDescription(en.queue.expired);
    expect(shell.storage.data.has(SIGN_UP_OUTBOX_STORAGE_KEY)).toBe(false);
  });
});
