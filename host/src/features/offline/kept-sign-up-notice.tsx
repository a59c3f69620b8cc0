import {
  Button,
  isQueuedSignUp,
  SIGN_UP_OUTBOX_EVENT,
  SIGN_UP_OUTBOX_STORAGE_KEY,
  type KeyValueStorage,
  type Navigation,
  type Overlays,
  type QueuedSignUp,
} from '@special-gift/shared';
import { useTranslation } from 'react-i18next';
import { REMOTES } from '../../config/remotes.generated';
import { withOutboxLock } from './sign-up-outbox';
import './kept-sign-up-notice.css';

const SIGN_UP_ROUTE = REMOTES.find((remote) => remote.name === 'signup')?.route ?? '/sign-up';
/** The details shown back, in the form's order (consent is not a detail to check). */
const DETAILS = ['firstName', 'lastName', 'email', 'phone', 'cardCode'] as const;
/** Written left to right in every language (an address, digits). */
const LEFT_TO_RIGHT: ReadonlySet<string> = new Set(['email', 'phone', 'cardCode']);

type Refused = Extract<QueuedSignUp, { state: 'refused' | 'review' }>;
/** The reason's element, which describes the dialog (one notice at a time: one id). */
const REASON_ID = 'sg-kept-sign-up-reason';

export interface KeptSignUpNoticeDeps {
  readonly storage: KeyValueStorage;
  readonly overlays: Pick<Overlays, 'alert' | 'modal'>;
  readonly navigation: Pick<Navigation, 'forward' | 'location'>;
  /** The host's texts (`common`), in the language shown now. */
  readonly t: (key: string) => string;
  /**
   * Whether the sign-up screen this app loads takes the notice's `review` (its `meta.handles`). One
   * built before the notice tells a refusal or an expiry itself: on its route the notice keeps quiet.
   */
  readonly signUpScreenTakesReview?: () => Promise<boolean>;
  /** The outbox's lock (tests); else the engine's Web Locks. */
  readonly locks?: Pick<LockManager, 'request'>;
}

/**
 * Writes `next` (or deletes, `undefined`) under the outbox's lock, only if the entry kept is still
 * the one shown: another tab may have queued a new sign-up while the notice was open. Whether written.
 */
async function replaceShown(
  storage: KeyValueStorage,
  shown: QueuedSignUp,
  next: QueuedSignUp | undefined,
  locks?: Pick<LockManager, 'request'>,
): Promise<boolean> {
  return withOutboxLock(async () => {
    const now = await storage.get<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY);
    if (!isQueuedSignUp(now) || now.state !== shown.state || now.queuedAt !== shown.queuedAt) return false;
    if (next) await storage.set(SIGN_UP_OUTBOX_STORAGE_KEY, next);
    else await storage.remove(SIGN_UP_OUTBOX_STORAGE_KEY);
    return true;
  }, locks).catch(() => false);
}

/** The refused sign-up's details as the user typed them, the refused ones marked, and what to do. */
function RefusedSignUp({ entry, onReview, onLater }: { entry: Refused; onReview: () => void; onLater: () => void }) {
  const { t } = useTranslation();
  const refusedFields = entry.fields ?? {};
  return (
    <div className="sg-kept-sign-up">
      <p id={REASON_ID}>
        {refusedFields.cardCode === 'already_registered' ? t('keptSignUp.cardTaken') : t('keptSignUp.refused')}
      </p>
      <dl className="sg-kept-sign-up__details">
        {DETAILS.map((field) => {
          const value = entry.body[field];
          if (typeof value !== 'string' || value.trim() === '') return null;
          return (
            <div key={field} className="sg-kept-sign-up__detail">
              <dt>{t(`keptSignUp.fields.${field}`)}</dt>
              <dd>
                <span dir={LEFT_TO_RIGHT.has(field) ? 'ltr' : 'auto'}>{value}</span>
                {refusedFields[field] ? (
                  <strong className="sg-kept-sign-up__refused"> {t('keptSignUp.notAccepted')}</strong>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
      <div className="sg-kept-sign-up__actions">
        <Button expand onClick={onReview}>
          {t('keptSignUp.review')}
        </Button>
        <Button expand variant="secondary" onClick={onLater}>
          {t('keptSignUp.later')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The shell's notice of a sign-up kept on this device that did not go through (docs/offline.md,
 * "The queue"), on whichever screen the app opens on, or when the host's sender hears it:
 * - refused by the API: its details, the reason, and *Correct and send* (the entry becomes
 *   `review` and the sign-up screen puts it back in the form) or *Later* (kept, shown again the
 *   next time, until its age deletes the details: then the expiry is told);
 * - expired unsent: said so (its details are already deleted); *Sign up again* opens the form.
 * Returns `show`, which reads the entry afresh; one notice at a time.
 */
export function createKeptSignUpNotice(deps: KeptSignUpNoticeDeps): () => Promise<void> {
  const { storage, overlays, navigation, t, locks, signUpScreenTakesReview } = deps;
  const toSignUp = () => {
    if (navigation.location().pathname !== SIGN_UP_ROUTE) navigation.forward(SIGN_UP_ROUTE);
  };
  let showing = false;
  return async function show() {
    if (showing) return;
    showing = true;
    try {
      const entry = await storage.get<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY).catch(() => null);
      if (!isQueuedSignUp(entry) || entry.state === 'queued') return;
      if (navigation.location().pathname === SIGN_UP_ROUTE && signUpScreenTakesReview) {
        if (!(await signUpScreenTakesReview().catch(() => true))) return; // that screen tells it
      }
      if (entry.state === 'expired') {
        const { role } = await overlays.alert({
          header: t('keptSignUp.expiredTitle'),
          message: t('keptSignUp.expired'),
          buttons: [
            { text: t('keptSignUp.ok'), role: 'cancel' },
            { text: t('keptSignUp.signUpAgain'), role: 'confirm' },
          ],
        });
        await replaceShown(storage, entry, undefined, locks); // told: nothing is left of it
        if (role === 'confirm') toSignUp();
        return;
      }
      const { role } = await overlays.modal({
        title: t('keptSignUp.refusedTitle'),
        describedBy: REASON_ID,
        render: (dismiss) => (
          <RefusedSignUp
            entry={entry}
            onReview={() => dismiss(undefined, 'confirm')}
            onLater={() => dismiss(undefined, 'cancel')}
          />
        ),
      });
      if (role !== 'confirm') return; // later (or closed): shown again the next time the app opens
      // Another sign-up kept meanwhile (or this one handled in another tab): left as it is.
      if (!(await replaceShown(storage, entry, { ...entry, state: 'review' }, locks))) return;
      // An open sign-up screen takes it now; one opened next reads it when it starts.
      window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state: 'review' } }));
      toSignUp();
    } finally {
      showing = false;
    }
  };
}
