import { SIGN_UP_OUTBOX_EVENT, SIGN_UP_OUTBOX_STORAGE_KEY, type QueuedSignUp } from '@special-gift/shared';
import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../../../public/assets/i18n/en.json';
import { createKeptSignUpNotice } from './kept-sign-up-notice';

const texts = en.keptSignUp;
const body = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  cardCode: '4111 1111 1111 1111',
  acceptedTerms: true,
};
const QUEUED_AT = '2026-01-02T03:04:05.000Z';
const REFUSED: QueuedSignUp = {
  state: 'refused',
  body,
  queuedAt: QUEUED_AT,
  code: 'card_already_registered',
  fields: { cardCode: 'already_registered' },
};

/** The shell's notice on a screen at `location`, with `entry` kept on the device. */
function setUp(
  entry: unknown,
  location = '/',
  locks?: Pick<LockManager, 'request'>,
  signUpScreenTakesReview?: () => Promise<boolean>,
) {
  const shell = createTestShell({
    location,
    storage: entry === undefined ? {} : { [SIGN_UP_OUTBOX_STORAGE_KEY]: entry },
  });
  const { i18next } = renderWithShell(<main />, { shell, resources: { en: { common: en } } });
  const show = createKeptSignUpNotice({ ...shell, locks, signUpScreenTakesReview, t: (key) => i18next.t(key) });
  const heard: string[] = [];
  const hear = (event: Event) => heard.push((event as CustomEvent<{ state: string }>).detail.state);
  window.addEventListener(SIGN_UP_OUTBOX_EVENT, hear);
  const shown = show().finally(() => window.removeEventListener(SIGN_UP_OUTBOX_EVENT, hear));
  return { ...shell, show, shown, heard, kept: () => shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY) };
}

describe('the shell tells a kept sign-up that did not go through, on any screen', () => {
  it('refused: its details as typed, the reason, the refused one marked, in a labelled dialog', async () => {
    setUp(REFUSED, '/thank-you');
    const dialog = await screen.findByRole('dialog', { name: texts.refusedTitle });
    expect(dialog).toHaveAccessibleDescription(texts.cardTaken); // said as the dialog opens
    const details = within(dialog).getAllByRole('definition');
    expect(
      within(dialog)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual([
      texts.fields.firstName,
      texts.fields.lastName,
      texts.fields.email,
      texts.fields.cardCode, // the phone was left empty
    ]);
    expect(details.map((detail) => detail.textContent)).toEqual([
      'Ada',
      'Lovelace',
      'ada@example.com',
      `4111 1111 1111 1111 ${texts.notAccepted}`,
    ]);
  });

  it('a refusal without the card at fault gives the general reason', async () => {
    setUp({ ...REFUSED, code: 'validation_failed', fields: { email: 'invalid' } });
    const dialog = await screen.findByRole('dialog', { name: texts.refusedTitle });
    expect(dialog).toHaveTextContent(texts.refused);
    expect(within(dialog).getAllByRole('definition')[2]).toHaveTextContent(`ada@example.com ${texts.notAccepted}`);
  });

  it('"Correct and send": handed to the sign-up screen (review), which is opened', async () => {
    const { shown, heard, kept, navigation } = setUp(REFUSED, '/');
    await userEvent.click(await screen.findByRole('button', { name: texts.review }));
    await shown;
    expect(kept()).toEqual({ ...REFUSED, state: 'review' });
    expect(heard).toEqual(['review']);
    expect(navigation.forward).toHaveBeenCalledWith('/sign-up');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('"Correct and send" on the sign-up screen: the open screen takes it, no navigation', async () => {
    const { shown, heard, navigation } = setUp(REFUSED, '/sign-up');
    await userEvent.click(await screen.findByRole('button', { name: texts.review }));
    await shown;
    expect(heard).toEqual(['review']);
    expect(navigation.forward).not.toHaveBeenCalled();
  });

  it('"Later" (or the close button): nothing is lost, it is shown again the next time', async () => {
    const { shown, show, kept, navigation } = setUp(REFUSED);
    await userEvent.click(await screen.findByRole('button', { name: texts.later }));
    await shown;
    expect(kept()).toEqual(REFUSED);
    expect(navigation.forward).not.toHaveBeenCalled();
    const again = show();
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await again;
    expect(kept()).toEqual(REFUSED);
  });

  it('expired: told in an alert; then nothing is left of it; "Sign up again" opens the form', async () => {
    const { shown, kept, navigation } = setUp({ state: 'expired', queuedAt: QUEUED_AT });
    const alert = await screen.findByRole('alertdialog', { name: texts.expiredTitle });
    expect(alert).toHaveAccessibleDescription(texts.expired);
    await userEvent.click(within(alert).getByRole('button', { name: texts.signUpAgain }));
    await shown;
    expect(kept()).toBeUndefined();
    expect(navigation.forward).toHaveBeenCalledWith('/sign-up');
  });

  it('expired, dismissed with OK: deleted, the user stays where they are', async () => {
    const { shown, kept, navigation } = setUp({ state: 'expired', queuedAt: QUEUED_AT });
    await userEvent.click(await screen.findByRole('button', { name: texts.ok }));
    await shown;
    expect(kept()).toBeUndefined();
    expect(navigation.forward).not.toHaveBeenCalled();
  });

  it.each([
    ['nothing kept', undefined],
    ['one still waiting', { state: 'queued', body, idempotencyKey: 'k', queuedAt: QUEUED_AT }],
    ['something unreadable', { state: 'refused' }],
  ])('%s: says nothing', async (_, entry) => {
    const { shown } = setUp(entry);
    await shown;
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('one notice at a time (the start and a sender report it together)', async () => {
    const { show } = setUp(REFUSED);
    void show();
    await screen.findByRole('dialog', { name: texts.refusedTitle });
    await act(() => new Promise((resolve) => setTimeout(resolve, 10))); // a second one would be up by now
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  describe('another tab keeps a new sign-up while the notice is open: it is never lost', () => {
    const NEWER: QueuedSignUp = {
      state: 'queued',
      body: { ...body, firstName: 'Grace' },
      idempotencyKey: 'newer',
      queuedAt: '2026-01-02T04:00:00.000Z',
    };

    it('expired, OK: the new one stays', async () => {
      const { shown, kept, storage } = setUp({ state: 'expired', queuedAt: QUEUED_AT });
      const ok = await screen.findByRole('button', { name: texts.ok });
      storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, NEWER);
      await userEvent.click(ok);
      await shown;
      expect(kept()).toEqual(NEWER);
    });

    it('refused, "Correct and send": the new one stays, not overwritten with the old details', async () => {
      const { shown, kept, storage, heard, navigation } = setUp(REFUSED, '/');
      const review = await screen.findByRole('button', { name: texts.review });
      storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, NEWER);
      await userEvent.click(review);
      await shown;
      expect(kept()).toEqual(NEWER);
      expect(heard).toEqual([]);
      expect(navigation.forward).not.toHaveBeenCalled();
    });

    it('the entry is read again and written while holding the outbox lock the senders take', async () => {
      let holding = false;
      const writesHolding: boolean[] = [];
      const locks = {
        request: jest.fn(async (_name: string, run: () => Promise<unknown>) => {
          holding = true;
          try {
            return await run();
          } finally {
            holding = false;
          }
        }),
      } as unknown as Pick<LockManager, 'request'>;
      const { shown, kept, storage } = setUp(REFUSED, '/', locks);
      storage.set.mockImplementation(async (key, value) => {
        writesHolding.push(holding);
        storage.data.set(key, value);
        return value;
      });
      await userEvent.click(await screen.findByRole('button', { name: texts.review }));
      await shown;
      expect(kept()).toEqual({ ...REFUSED, state: 'review' });
      expect(writesHolding).toEqual([true]);
      expect(locks.request).toHaveBeenCalledWith('sg-sign-up-outbox', expect.any(Function));
    });
  });

  describe('a sign-up screen built before the notice (it tells a refusal or an expiry itself)', () => {
    const olderScreen = async () => false;

    it.each([
      ['refused', REFUSED],
      ['expired', { state: 'expired', queuedAt: QUEUED_AT }],
    ])('%s, on its route: the notice keeps quiet, the entry left to that screen', async (_, entry) => {
      const { shown, kept } = setUp(entry, '/sign-up', undefined, olderScreen);
      await shown;
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(kept()).toEqual(entry);
    });

    it('on another screen: the notice tells it', async () => {
      setUp(REFUSED, '/thank-you', undefined, olderScreen);
      expect(await screen.findByRole('dialog', { name: texts.refusedTitle })).toBeInTheDocument();
    });

    it('a screen that takes "review", on its route: the notice tells it', async () => {
      setUp(REFUSED, '/sign-up', undefined, async () => true);
      expect(await screen.findByRole('dialog', { name: texts.refusedTitle })).toBeInTheDocument();
    });
  });
});
