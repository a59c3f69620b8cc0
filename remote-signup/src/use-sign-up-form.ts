import {
  isHttpError,
  isQueuedSignUp,
  KEPT_SIGN_UP_NOTICE,
  SIGN_UP_OUTBOX_EVENT,
  SIGN_UP_OUTBOX_STORAGE_KEY,
  SIGN_UP_RESULT_STORAGE_KEY,
  type QueuedSignUp,
  useHttp,
  useNavigation,
  useOverlays,
  useShellLocation,
  useStorage,
  useTranslation,
  type SignUpErrors,
  type SignUpField,
  type SignUpResult,
} from '@special-gift/shared';
import type { CreatedSignUp } from '@special-gift/shared/api';
import { formatCardCode, SIGN_UP_FIELDS, validateSignUp, validateSignUpField } from '@special-gift/shared/validation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createIdempotencyKey } from './create-idempotency-key';
import { classifySubmitFailure } from './submit-failure';
import { clearDraft, readDraft, toSignUpValues, writeDraft } from './sign-up-draft';
import { EMPTY_VALUES, fieldId, hasAnyValue, type SignUpValues } from './sign-up-values';

const DRAFT_SAVE_DELAY_MS = 300;
/** A failed draft save is said for longer than a passing toast: the user may need to act on it. */
const DRAFT_SAVE_FAILED_TOAST_MS = 6000;

/**
 * Whether the shell tells a refused or expired kept sign-up itself. Read from the host's copy of
 * the contract at runtime: undefined on a host older than its notice, which then tells nothing.
 */
const shellTellsUnsent = () => (KEPT_SIGN_UP_NOTICE as boolean | undefined) === true;

function focusFirstInvalid(errors: SignUpErrors) {
  const first = SIGN_UP_FIELDS.find((field) => errors[field]);
  if (first) document.getElementById(fieldId(first))?.focus();
}

/**
 * The sign-up form's state and behaviour: validation on leave and on submit with the shared rules,
 * a draft saved as the user types and restored on return, a `?card=` link prefill, and a submit
 * that cannot run twice and never loses what was typed.
 */
export function useSignUpForm() {
  const { t } = useTranslation('signup');
  const storage = useStorage();
  const http = useHttp();
  const overlays = useOverlays();
  const navigation = useNavigation();
  const { search } = useShellLocation();

  const [values, setValues] = useState<SignUpValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [ready, setReady] = useState(false);
  // A sign-up made offline is kept on the device and sent by the host (docs/offline.md): said so.
  const [queued, setQueued] = useState(false);
  // Off from a submit that moves focus to an invalid field until the user edits or leaves one:
  // each message is then read once, with its field, instead of all at once from live regions.
  const [announceErrors, setAnnounceErrors] = useState(true);
  const touched = useRef(new Set<SignUpField>());
  const edited = useRef(new Set<keyof SignUpValues>());
  const idempotencyKey = useRef<string | undefined>(undefined);
  const inFlight = useRef(false);
  const started = useRef(false);
  const saveFailureShown = useRef(false);

  /**
   * The sign-up kept on this device: still waiting (said so), or one the API refused that the user
   * asked the shell's notice to correct (`review`): its details back in the form, the fields at
   * fault marked and the first focused; then deleted, the form's draft holding it. The shell tells
   * a refusal or an expiry on every screen (docs/offline.md); this screen does not repeat it,
   * except on a host older than that notice, where it tells them itself (and deletes them).
   */
  const showOutbox = useCallback(async () => {
    const entry = await storage.get<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY).catch(() => null);
    setQueued(isQueuedSignUp(entry) && entry.state === 'queued');
    if (!isQueuedSignUp(entry) || entry.state === 'queued') return;
    const shellTells = shellTellsUnsent();
    if (shellTells && entry.state !== 'review') return;
    if (entry.state === 'expired') {
      await storage.remove(SIGN_UP_OUTBOX_STORAGE_KEY).catch(() => undefined);
      await overlays.alert({
        header: t('queue.expiredTitle'),
        message: t('queue.expired'),
        buttons: [{ text: t('queue.ok') }],
      });
      return;
    }
    const values = toSignUpValues(entry.body);
    idempotencyKey.current = undefined; // a refused submission: the next one is another
    setValues(values);
    await writeDraft(storage, { values }).catch(() => undefined);
    await storage.remove(SIGN_UP_OUTBOX_STORAGE_KEY).catch(() => undefined);
    const fields = Object.fromEntries(
      Object.entries(entry.fields ?? {}).filter(([field]) => (SIGN_UP_FIELDS as readonly string[]).includes(field)),
    ) as SignUpErrors;
    SIGN_UP_FIELDS.forEach((field) => touched.current.add(field));
    setAnnounceErrors(false); // focus goes to the field, which reads its own message
    setErrors(fields);
    if (!shellTells) {
      await overlays.alert({
        header: t('failure.title'),
        message: t('queue.refused'),
        buttons: [{ text: t('queue.ok') }],
      });
      focusFirstInvalid(fields);
      return;
    }
    // After the values are on screen (and the shell's notice has given focus back).
    window.setTimeout(() => focusFirstInvalid(fields));
  }, [storage, overlays, t]);

  // The host's news of the kept sign-up: sent (on to the thank-you screen), to correct here, or
  // refused or expired (no longer waiting: the message that it will be sent goes).
  useEffect(() => {
    const onOutbox = (event: Event) => {
      const { state } = (event as CustomEvent<{ state: string }>).detail ?? {};
      if (state === 'sent') navigation.root('/thank-you');
      else if (state === 'review' || state === 'refused' || state === 'expired') void showOutbox();
    };
    window.addEventListener(SIGN_UP_OUTBOX_EVENT, onOutbox);
    return () => window.removeEventListener(SIGN_UP_OUTBOX_EVENT, onOutbox);
  }, [navigation, showOutbox]);

  // Restore the draft once; a scanned-card link's code wins over the draft's.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const cardFromLink = new URLSearchParams(search).get('card');
    readDraft(storage)
      .catch(() => null)
      .then((draft) => {
        let next = draft?.values ?? EMPTY_VALUES;
        idempotencyKey.current = draft?.idempotencyKey;
        if (cardFromLink && formatCardCode(cardFromLink) !== next.cardCode) {
          next = { ...next, cardCode: formatCardCode(cardFromLink) };
          idempotencyKey.current = undefined; // other values: another submission
        }
        // What the user typed before the draft was read (e.g. into the prerendered page) wins.
        setValues((current) => {
          const merged = { ...next };
          for (const field of edited.current) (merged as Record<string, unknown>)[field] = current[field];
          return merged;
        });
        setReady(true);
        if (draft && hasAnyValue(draft.values)) void overlays.toast({ message: t('draftRestored') });
        return showOutbox();
      });
  }, [search, storage, overlays, t, showOutbox]);

  // Save as the user types (debounced). A failed save is said once, never silently dropped.
  useEffect(() => {
    if (!ready) return;
    const timer = window.setTimeout(() => {
      const draft = idempotencyKey.current ? { values, idempotencyKey: idempotencyKey.current } : { values };
      writeDraft(storage, draft).catch(() => {
        if (saveFailureShown.current) return;
        saveFailureShown.current = true;
        void overlays.toast({ message: t('draftSaveFailed'), duration: DRAFT_SAVE_FAILED_TOAST_MS });
      });
    }, DRAFT_SAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [values, ready, storage, overlays, t]);

  const setFieldError = useCallback((field: SignUpField, next: SignUpValues) => {
    setErrors((current) => ({ ...current, [field]: validateSignUpField(field, next) }));
  }, []);

  const change = useCallback(
    <K extends keyof SignUpValues>(field: K, value: SignUpValues[K]) => {
      // Different values make a different submission: it needs its own idempotency key.
      idempotencyKey.current = undefined;
      edited.current.add(field);
      setAnnounceErrors(true);
      setValues((current) => {
        const next = { ...current, [field]: field === 'cardCode' ? formatCardCode(String(value)) : value };
        if (touched.current.has(field) || field === 'acceptedTerms') setFieldError(field, next);
        return next;
      });
    },
    [setFieldError],
  );

  /** A scanned card code: filled and validated at once, as if typed and left. */
  const fillCardCode = useCallback(
    (code: string) => {
      touched.current.add('cardCode');
      change('cardCode', code);
    },
    [change],
  );

  const blur = useCallback(
    (field: SignUpField) => {
      touched.current.add(field);
      setAnnounceErrors(true);
      setFieldError(field, values);
    },
    [values, setFieldError],
  );

  const send = useCallback(async (): Promise<void> => {
    const checked = validateSignUp(values);
    SIGN_UP_FIELDS.forEach((field) => touched.current.add(field));
    if (!checked.ok) {
      setAnnounceErrors(false);
      setErrors(checked.errors);
      focusFirstInvalid(checked.errors);
      return;
    }
    setErrors({});
    setSubmitting(true);
    let key = (idempotencyKey.current ??= createIdempotencyKey());
    await writeDraft(storage, { values, idempotencyKey: key }).catch(() => undefined);

    const body = { ...values, phone: values.phone.trim() === '' ? undefined : values.phone };
    // Retrying after a failure re-sends the same body with the same key: never a second sign-up.
    for (;;) {
      try {
        const created = await http.post<CreatedSignUp>('sign-ups', body, { headers: { 'Idempotency-Key': key } });
        const result: SignUpResult = {
          firstName: created.firstName,
          email: created.email,
          cardLast4: created.cardLast4,
          createdAt: created.createdAt,
        };
        await storage.set(SIGN_UP_RESULT_STORAGE_KEY, result).catch(() => undefined);
        await clearDraft(storage).catch(() => undefined);
        navigation.root('/thank-you');
        return;
      } catch (error) {
        const failure = classifySubmitFailure(error);
        if (failure.kind === 'new-key') {
          key = idempotencyKey.current = createIdempotencyKey();
          continue;
        }
        setSubmitting(false);
        if (isHttpError(error) && (error.kind === 'network' || error.kind === 'timeout')) {
          // No answer: kept on the device with its key, sent by the host when the network returns.
          const entry: QueuedSignUp = {
            state: 'queued',
            body,
            idempotencyKey: key,
            queuedAt: new Date().toISOString(),
          };
          const kept = await storage.set(SIGN_UP_OUTBOX_STORAGE_KEY, entry).then(
            () => true,
            () => false, // not kept (storage refused): the alert below, as before
          );
          if (kept) {
            await clearDraft(storage).catch(() => undefined);
            setQueued(true);
            window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state: 'queued' } }));
            return;
          }
        }
        if (failure.kind === 'fields') {
          setAnnounceErrors(false);
          setErrors(failure.errors);
          focusFirstInvalid(failure.errors);
          return;
        }
        const { role } = await overlays.alert({
          header: t('failure.title'),
          // Texts older than `unreachable`: the server's sentence, closer to the truth than "offline".
          message: t(
            failure.reason === 'unreachable'
              ? ['failure.unreachable', 'failure.server']
              : [`failure.${failure.reason}`],
          ),
          buttons: [
            { text: t('failure.cancel'), role: 'cancel' },
            { text: t('failure.retry'), role: 'retry' },
          ],
        });
        if (role !== 'retry') return;
        setSubmitting(true);
      }
    }
  }, [values, storage, http, navigation, overlays, t]);

  const submit = useCallback(() => {
    if (inFlight.current) return; // a double click submits once
    inFlight.current = true; // set before any await, so the second click of a double click sees it
    void send().finally(() => {
      inFlight.current = false;
    });
  }, [send]);

  return { values, errors, announceErrors, submitting, ready, queued, change, fillCardCode, blur, submit };
}
