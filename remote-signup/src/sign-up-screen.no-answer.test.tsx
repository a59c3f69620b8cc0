import { HttpError, SIGN_UP_OUTBOX_STORAGE_KEY } from '@special-gift/shared';
import { createTestShell, renderWithShell, type TestShell } from '@special-gift/shared/testing';
import { VALID_TEST_CARD_CODES } from '@special-gift/shared/testing/cards';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ar from '../public/assets/i18n/ar.json';
import en from '../public/assets/i18n/en.json';
import fr from '../public/assets/i18n/fr.json';
import { DRAFT_STORAGE_KEY } from './sign-up-draft';
import { SignUpScreen } from './sign-up-screen';

/**
 * A sign-up that got no answer (issue 40): the device offline, or online with our service not
 * answering (the API down, refusing connections). Kept and sent later either way; the words say
 * which, in each language: "offline" only when the browser says the device is.
 */
type Texts = typeof en;

const VALUES = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  cardCode: VALID_TEST_CARD_CODES[0],
  acceptedTerms: true,
};

let onLine: jest.SpiedGetter<boolean>;
beforeEach(() => {
  onLine = jest.spyOn(navigator, 'onLine', 'get');
});
afterEach(() => onLine.mockRestore());

/** The device's network as the browser reports it, and its event, as a real change fires. */
function setOnline(online: boolean, event = false) {
  onLine.mockReturnValue(online);
  if (event) act(() => void window.dispatchEvent(new Event(online ? 'online' : 'offline')));
}

/** The screen in `language`, its valid draft restored, submitted: the POST gets no answer. */
async function submitWithNoAnswer(language: 'en' | 'fr' | 'ar', texts: Texts, shell?: TestShell) {
  const given = shell ?? createTestShell({ language });
  given.storage.data.set(DRAFT_STORAGE_KEY, { values: VALUES });
  given.http.post.mockRejectedValueOnce(new HttpError('network', 'POST sign-ups failed: network error'));
  renderWithShell(<SignUpScreen />, { shell: given, resources: { [language]: { signup: texts } } });
  const submit = await screen.findByRole('button', { name: texts.submit });
  await waitFor(() => expect(submit).toBeEnabled());
  await userEvent.click(submit);
  return given;
}

const queuedStatus = async (texts: Texts) => (await screen.findByText(texts.queue.title)).closest('[role="status"]');

describe.each([
  ['en', en],
  ['fr', fr],
  ['ar', ar],
] as const)('a sign-up that got no answer, in %s', (language, texts) => {
  it('with the device offline: kept, and the user told the phone is offline', async () => {
    setOnline(false);
    const shell = await submitWithNoAnswer(language, texts);
    const status = await queuedStatus(texts);
    expect(status).toHaveTextContent(texts.queue.messageWhenOpen); // jsdom: no Background Sync
    expect(shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toMatchObject({ state: 'queued' });
  });

  it('with the device online: kept, and the user told our service could not be reached, never that the phone is offline', async () => {
    setOnline(true);
    const shell = await submitWithNoAnswer(language, texts);
    const status = await queuedStatus(texts);
    expect(status).toHaveTextContent(texts.queue.unreachable);
    expect(status).not.toHaveTextContent(texts.queue.messageWhenOpen);
    expect(status).not.toHaveTextContent(texts.queue.message);
    expect(shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toMatchObject({ state: 'queued' });
  });

  it.each([
    [false, 'network'],
    [true, 'unreachable'],
  ] as const)('not kept (the storage refused it), online: %s: the alert says failure.%s', async (online, reason) => {
    setOnline(online);
    const shell = createTestShell({ language });
    shell.storage.set.mockImplementation(async (key, value) => {
      if (key === SIGN_UP_OUTBOX_STORAGE_KEY) throw new Error('QuotaExceededError');
      shell.storage.data.set(key, value);
      return value;
    });
    await submitWithNoAnswer(language, texts, shell);
    const alert = await screen.findByRole('alertdialog', { name: texts.failure.title });
    expect(alert).toHaveAccessibleDescription(texts.failure[reason]);
  });
});

describe('a kept sign-up whose message is on screen', () => {
  it('follows the device: offline, then online again', async () => {
    setOnline(true);
    await submitWithNoAnswer('en', en);
    const status = await queuedStatus(en);
    expect(status).toHaveTextContent(en.queue.unreachable);
    setOnline(false, true);
    expect(status).toHaveTextContent(en.queue.messageWhenOpen);
    setOnline(true, true);
    expect(status).toHaveTextContent(en.queue.unreachable);
  });
});

describe('texts older than the "could not be reached" sentences (a newer screen, its texts from a cache)', () => {
  const { unreachable: _queue, ...queue } = en.queue;
  const { unreachable: _failure, ...failure } = en.failure;
  const older = { ...en, queue, failure } as Texts;

  it('kept: the offline message, as before', async () => {
    setOnline(true);
    await submitWithNoAnswer('en', older);
    expect(await queuedStatus(en)).toHaveTextContent(en.queue.messageWhenOpen);
  });

  it('not kept: the server alert, not "offline"', async () => {
    setOnline(true);
    const shell = createTestShell();
    shell.storage.set.mockRejectedValue(new Error('QuotaExceededError'));
    await submitWithNoAnswer('en', older, shell);
    const alert = await screen.findByRole('alertdialog', { name: en.failure.title });
    expect(alert).toHaveAccessibleDescription(en.failure.server);
  });
});
