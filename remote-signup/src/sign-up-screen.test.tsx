import {
  HttpError,
  SIGN_UP_OUTBOX_EVENT,
  SIGN_UP_OUTBOX_STORAGE_KEY,
  SIGN_UP_RESULT_STORAGE_KEY,
  type ApiErrorBody,
  type QueuedSignUp,
  type SignUpResult,
} from '@special-gift/shared';
import { createTestShell, renderWithShell, type TestShell } from '@special-gift/shared/testing';
import { VALID_TEST_CARD_CODES } from '@special-gift/shared/testing/cards';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import en from '../public/assets/i18n/en.json';
import { DRAFT_STORAGE_KEY, type SignUpDraft } from './sign-up-draft';
import { SignUpScreen } from './sign-up-screen';
import { EMPTY_VALUES } from './sign-up-values';

const resources = { en: { signup: en } };
const CARD = VALID_TEST_CARD_CODES[0];
const CARD_GROUPED = '4111 1111 1111 1111';
const created: SignUpResult = {
  firstName: 'Ada',
  email: 'ada@example.com',
  cardLast4: '1111',
  createdAt: '2025-01-02T03:04:05.000Z',
};
/** A sign-up kept on the device while offline (docs/offline.md). */
const QUEUED = {
  state: 'queued',
  body: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '',
    cardCode: CARD_GROUPED,
    acceptedTerms: true,
  },
  idempotencyKey: '00000000-0000-4000-8000-000000000000',
  queuedAt: '2026-01-02T03:04:05.000Z',
} as const;
/** Kept sign-ups that will not be sent (the shell tells them), by state. */
const UNSENT = [
  [
    'refused',
    { state: 'refused', body: QUEUED.body, queuedAt: QUEUED.queuedAt, fields: { cardCode: 'already_registered' } },
  ],
  ['expired', { state: 'expired', queuedAt: QUEUED.queuedAt }],
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const field = {
  firstName: () => screen.getByLabelText('First name'),
  lastName: () => screen.getByLabelText('Last name'),
  email: () => screen.getByLabelText('Email'),
  phone: () => screen.getByLabelText('Mobile phone (optional)'),
  cardCode: () => screen.getByLabelText('Card code'),
  consent: () => screen.getByRole('checkbox', { name: 'I accept the terms and conditions' }),
};
const submitButton = () => screen.getByRole('button', { name: 'Sign up' });

/** Keystrokes without a pause between them: the same events, a faster suite. */
const fastUser = () => userEvent.setup({ delay: null });

/** Renders the screen and waits until the saved draft (if any) has been read. */
async function renderSignUp(shell: TestShell = createTestShell({ location: '/sign-up' })) {
  const view = renderWithShell(<SignUpScreen />, { shell, resources });
  const form = view.container.querySelector('form');
  await waitFor(() => expect(form).not.toHaveAttribute('aria-busy'));
  return view;
}

async function fillValidForm(user: UserEvent) {
  await user.type(field.firstName(), 'Ada');
  await user.type(field.lastName(), 'Lovelace');
  await user.type(field.email(), 'ada@example.com');
  await user.type(field.cardCode(), CARD);
  await user.click(field.consent());
}

/** The Idempotency-Key header of the n-th POST. */
function idempotencyKeyOf(shell: TestShell, n: number): string | undefined {
  return shell.http.post.mock.calls[n]?.[2]?.headers?.['Idempotency-Key'];
}

const draftOf = (shell: TestShell) => shell.storage.data.get(DRAFT_STORAGE_KEY) as SignUpDraft | undefined;

/** The message in place of the form when the sign-up is kept on the device (a status region). */
const queuedStatus = async () => (await screen.findByText(en.queue.title)).closest('[role="status"]');

let onLine: jest.SpiedGetter<boolean> | undefined;
afterEach(() => onLine?.mockRestore());
/** The browser says the device has no network (navigator.onLine), for this test. */
function offline() {
  onLine = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
}

function apiError(status: number, body: ApiErrorBody): HttpError {
  return new HttpError('http', body.error.message, status, body);
}

describe('SignUpScreen: the form', () => {
  it('labels every field and describes the card code and phone with their hints', async () => {
    await renderSignUp();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign up' })).toBeInTheDocument();
    for (const input of [field.firstName(), field.lastName(), field.email(), field.phone(), field.cardCode()]) {
      expect(input).toHaveValue('');
      expect(input).not.toHaveAttribute('aria-invalid');
    }
    expect(field.email()).toHaveAttribute('type', 'email');
    expect(field.phone()).toHaveAttribute('type', 'tel');
    expect(field.cardCode()).toHaveAccessibleDescription(en.hints.cardCode);
    expect(field.phone()).toHaveAccessibleDescription(en.hints.phone);
    expect(field.consent()).not.toBeChecked();
    expect(screen.getByRole('group', { name: 'About you' })).toContainElement(field.firstName());
    expect(screen.getByRole('group', { name: 'Your card' })).toContainElement(field.cardCode());
  });

  it('says nothing about an empty field until it is left, then shows its own message and marks it invalid', async () => {
    const user = fastUser();
    await renderSignUp();
    expect(screen.queryByText('Enter your first name.')).not.toBeInTheDocument();

    await user.click(field.firstName());
    await user.tab();
    expect(field.firstName()).toHaveAttribute('aria-invalid', 'true');
    expect(field.firstName()).toHaveAccessibleDescription('Enter your first name.');
    expect(field.lastName()).not.toHaveAttribute('aria-invalid');

    // Once touched, the field is checked again as the user types.
    await user.type(field.firstName(), 'A');
    expect(field.firstName()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Enter your first name.')).not.toBeInTheDocument();
  });

  it('explains a malformed email and card code when they are left', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.type(field.email(), 'ada@');
    await user.type(field.cardCode(), '4111 1111');
    await user.tab();
    expect(field.email()).toHaveAccessibleDescription(en.errors.email.invalid_email);
    expect(field.cardCode()).toHaveAccessibleDescription(
      `${en.hints.cardCode} ${en.errors.cardCode.invalid_card_code}`,
    );
  });

  it('explains control and text-direction characters pasted into a name', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.click(field.firstName());
    await user.paste('Ada\u202egnp.exe');
    await user.tab();
    expect(field.firstName()).toHaveAccessibleDescription(en.errors.invalid_characters);
    expect(field.firstName()).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the card code grouped in fours however it is typed', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.type(field.cardCode(), '4111-1111-1111-1111');
    expect(field.cardCode()).toHaveValue(CARD_GROUPED);

    await user.clear(field.cardCode());
    await user.type(field.cardCode(), '411111');
    expect(field.cardCode()).toHaveValue('4111 11');
  });

  it('prefills the card code from a scanned card link (?card=)', async () => {
    await renderSignUp(createTestShell({ location: `/sign-up?card=${CARD}` }));
    expect(field.cardCode()).toHaveValue(CARD_GROUPED);
    expect(field.firstName()).toHaveValue('');
  });

  it('Back goes back through the shell, with the intro as the fallback', async () => {
    const user = fastUser();
    const shell = createTestShell({ location: '/sign-up' });
    await renderSignUp(shell);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(shell.navigation.back).toHaveBeenCalledWith('/');
  });
});

describe('SignUpScreen: submitting', () => {
  it('with errors: shows every message, focuses the first invalid field and posts nothing', async () => {
    const user = fastUser();
    const shell = createTestShell();
    await renderSignUp(shell);

    await user.click(submitButton());
    expect(field.firstName()).toHaveFocus();
    expect(field.firstName()).toHaveAccessibleDescription('Enter your first name.');
    expect(field.lastName()).toHaveAccessibleDescription('Enter your last name.');
    expect(field.email()).toHaveAccessibleDescription('Enter your email address.');
    expect(field.cardCode()).toHaveAccessibleDescription(`${en.hints.cardCode} Enter the code on your card.`);
    expect(field.consent()).toHaveAccessibleDescription('Please accept the terms and conditions to continue.');
    expect(field.phone()).not.toHaveAttribute('aria-invalid');
    expect(shell.http.post).not.toHaveBeenCalled();
  });

  it('with errors: each message is heard once, with its field, not all at once from live regions', async () => {
    const user = fastUser();
    await renderSignUp();
    const messages = () => [...document.querySelectorAll('.sg-field__error')].filter((node) => node.textContent !== '');

    await user.click(submitButton());
    expect(field.firstName()).toHaveFocus();
    expect(messages()).toHaveLength(5);
    for (const message of messages()) expect(message).toHaveAttribute('aria-live', 'off');

    // Leaving a field is the user's own step again: a message that then appears is announced.
    await user.tab();
    await user.type(field.lastName(), 'L');
    await user.clear(field.lastName());
    await user.tab();
    expect(field.lastName()).toHaveAccessibleDescription('Enter your last name.');
    for (const message of messages()) expect(message).toHaveAttribute('aria-live', 'polite');
  });

  it('marks each message with an icon hidden from assistive technologies, which hear aria-invalid instead', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.click(submitButton());
    for (const input of [field.firstName(), field.lastName(), field.email(), field.cardCode(), field.consent()]) {
      expect(input).toHaveAttribute('aria-invalid', 'true');
      const message = document.getElementById(`${input.id}-error`);
      expect(message?.querySelector('svg.sg-field__error-icon')).toHaveAttribute('aria-hidden', 'true');
    }
    expect(document.querySelector('.sg-field__hint svg')).toBeNull();
  });

  it('with errors further down: focuses the first invalid one', async () => {
    const user = fastUser();
    const shell = createTestShell();
    await renderSignUp(shell);
    await user.type(field.firstName(), 'Ada');
    await user.type(field.lastName(), 'Lovelace');
    await user.type(field.email(), 'ada@example.com');
    await user.type(field.cardCode(), '4111111111111112');

    await user.click(submitButton());
    expect(field.cardCode()).toHaveFocus();
    expect(field.cardCode()).toHaveAccessibleDescription(`${en.hints.cardCode} ${en.errors.cardCode.card_checksum}`);
    expect(shell.http.post).not.toHaveBeenCalled();
  });

  it('when valid: posts with an idempotency key, keeps the result, clears the draft and starts a new stack at thank-you', async () => {
    const user = fastUser();
    const shell = createTestShell({ location: '/sign-up' });
    shell.http.post.mockResolvedValueOnce({ ...created, id: 'ignored-extra-field' });
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.click(submitButton());
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you'));

    expect(shell.http.post).toHaveBeenCalledTimes(1);
    expect(shell.http.post).toHaveBeenCalledWith(
      'sign-ups',
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: undefined,
        cardCode: CARD_GROUPED,
        acceptedTerms: true,
      },
      { headers: { 'Idempotency-Key': expect.stringMatching(UUID) } },
    );
    expect(shell.storage.data.get(SIGN_UP_RESULT_STORAGE_KEY)).toEqual(created);
    expect(shell.storage.data.has(DRAFT_STORAGE_KEY)).toBe(false);
    expect(shell.navigation.forward).not.toHaveBeenCalled();
  });

  it('sends the phone number when one is given', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockResolvedValueOnce(created);
    await renderSignUp(shell);
    await fillValidForm(user);
    await user.type(field.phone(), '+44 7700 900123');

    await user.click(submitButton());
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalled());
    expect(shell.http.post.mock.calls[0]?.[1]).toMatchObject({ phone: '+44 7700 900123' });
  });

  it('keeps the idempotency key in the draft before posting, so a reload cannot sign up twice', async () => {
    const user = fastUser();
    const shell = createTestShell();
    let answer: (value: unknown) => void = () => undefined;
    shell.http.post.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.click(submitButton());
    await waitFor(() => expect(shell.http.post).toHaveBeenCalled());
    expect(draftOf(shell)?.idempotencyKey).toBe(idempotencyKeyOf(shell, 0));

    // While the request runs the button says so and cannot be pressed, yet keeps focus (a
    // disabled button would drop it to <body>).
    const busy = screen.getByRole('button', { name: 'Signing you up…' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveFocus();
    await user.click(busy);
    expect(shell.http.post).toHaveBeenCalledTimes(1);

    await act(async () => answer(created));
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you'));
  });

  it('posts once on a double click', async () => {
    // Default pacing: the second click comes a moment after the first, as a person's would.
    const user = userEvent.setup();
    const shell = createTestShell();
    shell.http.post.mockResolvedValue(created);
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.dblClick(submitButton());
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalled());
    expect(shell.http.post).toHaveBeenCalledTimes(1);
  });
  it('posts once when a second submit comes before the draft write has finished', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockResolvedValue(created);
    const view = await renderSignUp(shell);
    await fillValidForm(user);

    // A slow device: the draft write before the POST takes a while.
    const pendingWrites: Array<() => void> = [];
    shell.storage.set.mockImplementation(
      (_key: string, value: unknown) => new Promise((resolve) => pendingWrites.push(() => resolve(value))),
    );
    const form = view.container.querySelector('form');
    if (!form) throw new Error('no form');
    fireEvent.submit(form);
    fireEvent.submit(form);
    await act(async () => {
      while (pendingWrites.length > 0) {
        pendingWrites.splice(0).forEach((release) => release());
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you'));
    expect(shell.http.post).toHaveBeenCalledTimes(1);
  });
});

describe('SignUpScreen: failures', () => {
  it('shows a card the server says is taken on the card field, without an alert', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockRejectedValueOnce(
      apiError(409, {
        error: {
          code: 'card_already_registered',
          message: 'Card already registered',
          fields: { cardCode: 'already_registered' },
        },
      }),
    );
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.click(submitButton());
    await waitFor(() =>
      expect(field.cardCode()).toHaveAccessibleDescription(`${en.hints.cardCode} This card is already registered.`),
    );
    expect(field.cardCode()).toHaveAttribute('aria-invalid', 'true');
    expect(field.cardCode()).toHaveFocus();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(shell.navigation.root).not.toHaveBeenCalled();
    expect(submitButton()).toBeEnabled();
  });

  it.each([
    ['no network', new HttpError('network', 'POST sign-ups failed: network error')],
    ['no answer in time', new HttpError('timeout', 'POST sign-ups timed out')],
  ])(
    'with %s, the device offline: keeps the sign-up on the device with its key, says it will be sent, and asks the host to send it',
    async (_, error) => {
      offline(); // online, the words differ (sign-up-screen.no-answer.test.tsx)
      const user = fastUser();
      const shell = createTestShell();
      shell.http.post.mockRejectedValueOnce(error);
      const announced = jest.fn();
      window.addEventListener(SIGN_UP_OUTBOX_EVENT, announced);
      await renderSignUp(shell);
      await fillValidForm(user);

      await user.click(submitButton());
      const status = await queuedStatus();
      expect(status).toHaveTextContent(en.queue.title);
      expect(status).toHaveTextContent(en.queue.messageWhenOpen); // jsdom: no Background Sync
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      const entry = shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY) as QueuedSignUp & { state: 'queued' };
      expect(entry).toMatchObject({ state: 'queued', body: { firstName: 'Ada', cardCode: CARD_GROUPED } });
      expect(entry.idempotencyKey).toBe(idempotencyKeyOf(shell, 0));
      expect(draftOf(shell)).toBeUndefined();
      expect(announced).toHaveBeenCalledTimes(1);
      window.removeEventListener(SIGN_UP_OUTBOX_EVENT, announced);
      expect(shell.navigation.root).not.toHaveBeenCalled();
    },
  );

  it('moves on to the thank-you screen when the host says the kept sign-up was sent', async () => {
    const shell = createTestShell();
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, QUEUED);
    renderWithShell(<SignUpScreen />, { shell, resources });
    expect(await queuedStatus()).toHaveTextContent(en.queue.title);
    act(() => void window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state: 'sent' } })));
    expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you');
  });

  it("puts back a refused kept sign-up the user asked to correct (the shell's notice): its details in the form, the field at fault marked and focused", async () => {
    const shell = createTestShell();
    const { idempotencyKey: _, ...rest } = QUEUED;
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, {
      ...rest,
      state: 'review',
      code: 'card_already_registered',
      fields: { cardCode: 'already_registered' },
    });
    renderWithShell(<SignUpScreen />, { shell, resources });
    await waitFor(() => expect(field.cardCode()).toHaveFocus());
    expect(field.firstName()).toHaveValue('Ada');
    expect(field.cardCode()).toHaveValue(CARD_GROUPED);
    expect(field.cardCode()).toHaveAttribute('aria-invalid', 'true');
    expect(field.cardCode()).toHaveAccessibleDescription(`${en.hints.cardCode} This card is already registered.`);
    // The shell told the refusal; the screen does not say it again.
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(shell.storage.data.has(SIGN_UP_OUTBOX_STORAGE_KEY)).toBe(false);
    expect(draftOf(shell)?.values).toMatchObject({ firstName: 'Ada', cardCode: CARD_GROUPED });
  });

  it("takes a correction asked for while it is open (the shell's notice on this screen)", async () => {
    const shell = createTestShell();
    await renderSignUp(shell);
    const { idempotencyKey: _, ...rest } = QUEUED;
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, { ...rest, state: 'review', fields: { email: 'invalid' } });
    act(() => void window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state: 'review' } })));
    await waitFor(() => expect(field.email()).toHaveFocus());
    expect(field.lastName()).toHaveValue('Lovelace');
    expect(field.email()).toHaveAttribute('aria-invalid', 'true');
  });

  it.each(UNSENT)('leaves a %s kept sign-up to the shell, which tells it on every screen', async (_, entry) => {
    const shell = createTestShell();
    shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, entry);
    await renderSignUp(shell);
    expect(shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual(entry);
    expect(field.firstName()).toHaveValue('');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it.each(UNSENT)(
    'stops saying it will be sent when the host reports it %s (the shell tells why)',
    async (state, entry) => {
      const shell = createTestShell();
      shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, QUEUED);
      renderWithShell(<SignUpScreen />, { shell, resources });
      await queuedStatus();
      shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, entry);
      act(() => void window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state } })));
      await waitFor(() => expect(screen.queryByText(en.queue.title)).not.toBeInTheDocument());
      expect(field.firstName()).toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(shell.storage.data.get(SIGN_UP_OUTBOX_STORAGE_KEY)).toEqual(entry);
    },
  );

  describe("what the kept sign-up's message promises", () => {
    /** An engine with or without Background Sync (`ServiceWorkerRegistration.prototype.sync`), a worker in control. */
    const engine = ({ backgroundSync }: { backgroundSync: boolean }) => {
      const registration = class {};
      if (backgroundSync) Object.defineProperty(registration.prototype, 'sync', { value: null });
      Object.assign(window, { ServiceWorkerRegistration: registration });
      Object.defineProperty(navigator, 'serviceWorker', { value: { controller: {} }, configurable: true });
    };
    const showQueued = () => {
      const shell = createTestShell();
      shell.storage.data.set(SIGN_UP_OUTBOX_STORAGE_KEY, QUEUED);
      renderWithShell(<SignUpScreen />, { shell, resources });
      return queuedStatus();
    };
    beforeEach(offline); // online, it says our service could not be reached, whatever the engine
    afterEach(() => {
      delete (window as { ServiceWorkerRegistration?: unknown }).ServiceWorkerRegistration;
      Object.defineProperty(navigator, 'serviceWorker', { value: undefined, configurable: true });
    });

    it('"you can close this page" where Background Sync sends it with the app closed (Chromium)', async () => {
      engine({ backgroundSync: true });
      expect(await showQueued()).toHaveTextContent(en.queue.message);
    });

    it('"while this page is open, or the next time you open the app" without it (Firefox, WebKit, every iPhone)', async () => {
      engine({ backgroundSync: false });
      const status = await showQueued();
      expect(status).toHaveTextContent(en.queue.messageWhenOpen);
      expect(status).not.toHaveTextContent(/close this page/);
    });
  });

  it('Retry posts again with the same idempotency key', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post
      .mockRejectedValueOnce(apiError(503, { error: { code: 'not_ready', message: 'Down' } }))
      .mockResolvedValueOnce(created);
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.click(submitButton());
    const alert = await screen.findByRole('alertdialog', { name: 'We couldn’t sign you up' });
    expect(alert).toHaveAccessibleDescription(en.failure.server);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you'));
    expect(shell.http.post).toHaveBeenCalledTimes(2);
    expect(idempotencyKeyOf(shell, 1)).toBe(idempotencyKeyOf(shell, 0));
  });

  it('submitting the same values again after Cancel reuses the key; changed values get a new one', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockRejectedValue(apiError(503, { error: { code: 'not_ready', message: 'Down' } }));
    await renderSignUp(shell);
    await fillValidForm(user);

    const cancelAlert = async () => {
      const alert = await screen.findByRole('alertdialog');
      await user.click(within(alert).getByRole('button', { name: 'Cancel' }));
    };
    await user.click(submitButton());
    await cancelAlert();
    await user.click(submitButton());
    await cancelAlert();
    expect(idempotencyKeyOf(shell, 1)).toBe(idempotencyKeyOf(shell, 0));

    await user.type(field.lastName(), '-King');
    await user.click(submitButton());
    await cancelAlert();
    expect(shell.http.post).toHaveBeenCalledTimes(3);
    expect(idempotencyKeyOf(shell, 2)).toMatch(UUID);
    expect(idempotencyKeyOf(shell, 2)).not.toBe(idempotencyKeyOf(shell, 0));
  });

  it.each([
    ['a server error', apiError(503, { error: { code: 'not_ready', message: 'Down' } }), en.failure.server],
    [
      'a rejection without field errors',
      apiError(400, { error: { code: 'bad_request', message: 'No' } }),
      en.failure.rejected,
    ],
    [
      'too many attempts',
      apiError(429, { error: { code: 'rate_limited', message: 'Slow down' } }),
      en.failure.rate_limited,
    ],
    ['an aborted request', new HttpError('aborted', 'aborted'), en.failure.unreachable],
    ['an unexpected error', new Error('boom'), en.failure.server],
  ])('words %s for the user', async (_, error, message) => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockRejectedValueOnce(error);
    await renderSignUp(shell);
    await fillValidForm(user);

    await user.click(submitButton());
    expect(await screen.findByRole('alertdialog', { name: 'We couldn’t sign you up' })).toHaveAccessibleDescription(
      message,
    );
  });
});

describe('SignUpScreen: the draft', () => {
  afterEach(() => jest.useRealTimers());

  it('saves what is typed once the user pauses for 300 ms', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const shell = createTestShell();
    await renderSignUp(shell);
    const draftWrites = () => shell.storage.set.mock.calls.filter(([key]) => key === DRAFT_STORAGE_KEY);

    await user.type(field.firstName(), 'Ada');
    await user.type(field.cardCode(), '4111');
    expect(draftWrites()).toHaveLength(0);

    await act(async () => {
      await jest.advanceTimersByTimeAsync(299);
    });
    expect(draftWrites()).toHaveLength(0);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1);
    });
    expect(draftWrites()).toHaveLength(1);
    expect(draftOf(shell)).toEqual({ values: { ...EMPTY_VALUES, firstName: 'Ada', cardCode: '4111' } });
  });

  it('restores the draft when the screen is opened again, and says so', async () => {
    const user = fastUser();
    const shell = createTestShell();
    const first = await renderSignUp(shell);
    await user.type(field.firstName(), 'Ada');
    await user.type(field.email(), 'ada@example.com');
    await user.click(field.consent());
    await waitFor(() =>
      expect(draftOf(shell)?.values).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', acceptedTerms: true }),
    );
    first.unmount();

    await renderSignUp(shell);
    expect(field.firstName()).toHaveValue('Ada');
    expect(field.email()).toHaveValue('ada@example.com');
    expect(field.consent()).toBeChecked();
    const toast = await screen.findByText('We restored what you entered earlier.');
    expect(screen.getByRole('status', { name: '' })).toContainElement(toast);
  });

  it('restores an empty draft quietly', async () => {
    const shell = createTestShell({ storage: { [DRAFT_STORAGE_KEY]: { values: EMPTY_VALUES } } });
    await renderSignUp(shell);
    expect(shell.overlays.getSnapshot()).toEqual([]);
    expect(screen.queryByText('We restored what you entered earlier.')).not.toBeInTheDocument();
  });

  it('keeps only the well-typed values of a malformed draft', async () => {
    await renderSignUp(
      createTestShell({
        storage: { [DRAFT_STORAGE_KEY]: { values: { firstName: 42, lastName: 'Lovelace', acceptedTerms: 'yes' } } },
      }),
    );
    expect(field.firstName()).toHaveValue('');
    expect(field.lastName()).toHaveValue('Lovelace');
    expect(field.consent()).not.toBeChecked();
  });

  it('lets a scanned card link win over the card code in the draft', async () => {
    const shell = createTestShell({
      location: `/sign-up?card=${VALID_TEST_CARD_CODES[1]}`,
      storage: { [DRAFT_STORAGE_KEY]: { values: { ...EMPTY_VALUES, firstName: 'Ada', cardCode: CARD } } },
    });
    await renderSignUp(shell);
    expect(field.firstName()).toHaveValue('Ada');
    expect(field.cardCode()).toHaveValue('5555 5555 5555 4444');
  });

  it('starts empty when the draft cannot be read', async () => {
    const shell = createTestShell();
    shell.storage.get.mockRejectedValueOnce(new Error('blocked'));
    await renderSignUp(shell);
    expect(field.firstName()).toHaveValue('');
    expect(submitButton()).toBeEnabled();
  });

  it('says once, not on every keystroke, that the draft cannot be saved', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const shell = createTestShell();
    shell.storage.set.mockRejectedValue(new DOMException('full', 'QuotaExceededError'));
    await renderSignUp(shell);

    await user.type(field.firstName(), 'Ada');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(300);
    });
    await user.type(field.lastName(), 'L');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(300);
    });
    expect(screen.getAllByText(en.draftSaveFailed)).toHaveLength(1);
  });

  it('resumes with the idempotency key of a submission that may have reached the server', async () => {
    const user = fastUser();
    const shell = createTestShell();
    shell.http.post.mockRejectedValueOnce(apiError(502, { error: { code: 'internal_error', message: 'Unreachable' } }));
    const first = await renderSignUp(shell);
    await fillValidForm(user);
    await user.click(submitButton());
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    first.unmount();

    // After a reload, the same submission goes out under the same key.
    shell.http.post.mockResolvedValueOnce(created);
    await renderSignUp(shell);
    await user.click(submitButton());
    await waitFor(() => expect(shell.navigation.root).toHaveBeenCalledWith('/thank-you'));
    expect(idempotencyKeyOf(shell, 1)).toBe(idempotencyKeyOf(shell, 0));
  });
});

describe('SignUpScreen: help and terms', () => {
  it('opens the terms in a modal whose "I agree" ticks the consent box', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.click(submitButton());
    expect(field.consent()).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'terms and conditions' }));
    const modal = screen.getByRole('dialog', { name: 'Terms and conditions' });
    expect(within(modal).getByRole('heading', { name: en.terms.data.title })).toBeInTheDocument();
    expect(modal).toHaveTextContent(en.terms.card.text);

    await user.click(within(modal).getByRole('button', { name: 'I agree' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(field.consent()).toBeChecked();
    expect(field.consent()).not.toHaveAttribute('aria-invalid');
  });

  it('closing the terms without agreeing leaves the box as it was', async () => {
    const user = fastUser();
    await renderSignUp();
    await user.click(screen.getByRole('button', { name: 'terms and conditions' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Terms and conditions' })).getByRole('button', { name: 'Close' }),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(field.consent()).not.toBeChecked();
  });

  it('"Where is my card code?" opens a popover next to it explaining where the code is', async () => {
    const user = fastUser();
    await renderSignUp();
    const help = screen.getByRole('button', { name: 'Where is my card code?' });
    await user.click(help);

    const popover = screen.getByRole('dialog', { name: 'Where is my card code?' });
    expect(popover).toHaveClass('sg-popover--anchored');
    expect(popover).toHaveTextContent(en.cardHelp.text);
  });
});
