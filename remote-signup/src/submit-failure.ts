import { isHttpError, type SignUpErrors } from '@special-gift/shared';
import { SIGN_UP_FIELDS } from '@special-gift/shared/validation';
import { isOnline } from './use-online';

/**
 * Which `failure.*` text the alert shows. No answer: `network` (the device is offline) or
 * `unreachable` (it is online, and our service could not be reached).
 */
export type FailureReason = 'server' | 'rate_limited' | 'rejected' | 'network' | 'unreachable' | 'timeout';

/** What the form does about a sign-up request that failed. */
export type SubmitFailure =
  /** The idempotency key was used for other values (a draft from before they changed): send again with a new one. */
  | { readonly kind: 'new-key' }
  /** Errors the form can show on its fields. */
  | { readonly kind: 'fields'; readonly errors: SignUpErrors }
  /** Anything else: an alert with Retry, keeping what was typed. */
  | { readonly kind: 'alert'; readonly reason: FailureReason };

function httpFailureReason(status: number): FailureReason {
  if (status >= 500) return 'server';
  return status === 429 ? 'rate_limited' : 'rejected';
}

/** `online`: whether the device has a network ({@link isOnline}), as the request failed. */
export function classifySubmitFailure(error: unknown, online = isOnline()): SubmitFailure {
  if (!isHttpError(error)) return { kind: 'alert', reason: 'server' };
  if (error.body?.error.code === 'idempotency_key_reused') return { kind: 'new-key' };
  if (error.kind === 'timeout') return { kind: 'alert', reason: 'timeout' };
  if (error.kind !== 'http') return { kind: 'alert', reason: online ? 'unreachable' : 'network' };
  const fields = error.body?.error.fields ?? {};
  const errors = Object.fromEntries(
    Object.entries(fields).filter(([field]) => (SIGN_UP_FIELDS as readonly string[]).includes(field)),
  ) as SignUpErrors;
  if (Object.keys(errors).length > 0) return { kind: 'fields', errors };
  return { kind: 'alert', reason: httpFailureReason(error.status ?? 500) };
}
