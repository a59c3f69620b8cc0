import { isHttpError, type SignUpErrors } from '@special-gift/shared';
import { SIGN_UP_FIELDS } from '@special-gift/shared/validation';

/** Which `failure.*` text the alert shows. */
export type FailureReason = 'server' | 'rate_limited' | 'rejected' | 'network' | 'timeout';

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

export function classifySubmitFailure(error: unknown): SubmitFailure {
  if (!isHttpError(error)) return { kind: 'alert', reason: 'server' };
  if (error.body?.error.code === 'idempotency_key_reused') return { kind: 'new-key' };
  if (error.kind !== 'http') return { kind: 'alert', reason: error.kind === 'timeout' ? 'timeout' : 'network' };
  const fields = error.body?.error.fields ?? {};
  const errors = Object.fromEntries(
    Object.entries(fields).filter(([field]) => (SIGN_UP_FIELDS as readonly string[]).includes(field)),
  ) as SignUpErrors;
  if (Object.keys(errors).length > 0) return { kind: 'fields', errors };
  return { kind: 'alert', reason: httpFailureReason(error.status ?? 500) };
}
