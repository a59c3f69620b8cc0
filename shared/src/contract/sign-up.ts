import { SIGN_UP_OUTBOX_MAX_AGE_HOURS } from '../api';

/**
 * Data the sign-up screen hands to the thank-you screen through the shell's storage, so the
 * thank-you screen still greets the user after a reload.
 */
export const SIGN_UP_RESULT_STORAGE_KEY = 'signUp.result';

export interface SignUpResult {
  readonly firstName: string;
  readonly email: string;
  readonly cardLast4: string;
  readonly createdAt: string;
}

export function isSignUpResult(value: unknown): value is SignUpResult {
  const candidate = value as Partial<SignUpResult> | null;
  return (
    typeof candidate?.firstName === 'string' &&
    typeof candidate.email === 'string' &&
    typeof candidate.cardLast4 === 'string' &&
    typeof candidate.createdAt === 'string'
  );
}

/**
 * A sign-up made with no network (docs/offline.md), kept on the device with its idempotency key
 * until the API acknowledges it: the sign-up screen writes it, the host sends it (when the network
 * returns, on the next start) and deletes it once answered. Never in a cache or in telemetry.
 */
export const SIGN_UP_OUTBOX_STORAGE_KEY = 'signUp.outbox';
/** After this long unsent, the queued sign-up is deleted, and the user told (within the API's key TTL). */
export const SIGN_UP_OUTBOX_MAX_AGE_MS = SIGN_UP_OUTBOX_MAX_AGE_HOURS * 60 * 60 * 1000;
/**
 * The shell tells a kept sign-up that did not go (refused, expired) itself, on every screen, and
 * hands a refused one to the sign-up screen as `review`. A remote reads this from the federated
 * contract, which is the host's copy at runtime: on a host older than that notice it is
 * undefined, and the sign-up screen tells a refusal or an expiry itself.
 */
export const KEPT_SIGN_UP_NOTICE = true;
/** A window event: the outbox changed (`detail` is the new state). The screen and the host listen. */
export const SIGN_UP_OUTBOX_EVENT = 'sg:sign-up-outbox';

export type QueuedSignUp =
  /** Waiting for the network. */
  | {
      readonly state: 'queued';
      readonly body: Readonly<Record<string, unknown>>;
      readonly idempotencyKey: string;
      readonly queuedAt: string;
    }
  /**
   * The API refused it (a 4xx: the card is taken, a field is invalid): the shell shows it with its
   * details on whatever screen the app opens on; `review` once the user asked to correct it, for the
   * sign-up screen to put back in the form (then deleted: the form's draft holds it).
   */
  | {
      readonly state: 'refused' | 'review';
      readonly body: Readonly<Record<string, unknown>>;
      readonly queuedAt: string;
      readonly code?: string;
      readonly fields?: Readonly<Record<string, string>>;
    }
  /** Not sent in time: its details are deleted, only the date is kept to tell the user. */
  | { readonly state: 'expired'; readonly queuedAt: string };

export function isQueuedSignUp(value: unknown): value is QueuedSignUp {
  const candidate = value as { state?: unknown; queuedAt?: unknown; body?: unknown; idempotencyKey?: unknown } | null;
  if (typeof candidate?.queuedAt !== 'string') return false;
  if (candidate.state === 'expired') return true;
  const hasBody = typeof candidate.body === 'object' && candidate.body !== null;
  if (candidate.state === 'refused' || candidate.state === 'review') return hasBody;
  return candidate.state === 'queued' && hasBody && typeof candidate.idempotencyKey === 'string';
}
