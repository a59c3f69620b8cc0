import { SIGN_UP_FIELD_RULES } from './sign-up-field-rules';
import { SIGN_UP_FIELDS, type SignUp, type SignUpErrorCode, type SignUpErrors, type SignUpField, type SignUpValidationResult } from './sign-up-types';

/** A field's raw value: own properties of a plain object only, so arrays, strings and prototypes yield nothing. */
function rawField(input: unknown, field: SignUpField): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return Object.hasOwn(input, field) ? (input as Record<string, unknown>)[field] : undefined;
}

/**
 * Validates and normalises a whole sign-up. Never throws: any input (untrusted JSON included) gives
 * either the normalised {@link SignUp} or an error code for each invalid field.
 */
export function validateSignUp(input: unknown): SignUpValidationResult {
  const errors: SignUpErrors = {};
  const value: Record<string, unknown> = {};
  for (const field of SIGN_UP_FIELDS) {
    const check = SIGN_UP_FIELD_RULES[field](rawField(input, field));
    if (!check.ok) errors[field] = check.error;
    else if (check.value !== undefined) value[field] = check.value; // an absent phone stays absent
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  // Every rule passed, so `value` holds each field in its SignUp form.
  return { ok: true, value: value as unknown as SignUp };
}

/**
 * One field's error code, or `undefined` when it is valid. `input` is the whole form (the same
 * shape `validateSignUp` takes), so the form can check the field just left.
 */
export function validateSignUpField(field: SignUpField, input: unknown): SignUpErrorCode | undefined {
  const check = SIGN_UP_FIELD_RULES[field](rawField(input, field));
  return check.ok ? undefined : check.error;
}
