import { SIGN_UP_FIELD_RULES, type FieldCheck, type SignUpFieldValues } from './sign-up-field-rules';
import {
  SIGN_UP_FIELDS,
  type SignUp,
  type SignUpErrorCode,
  type SignUpErrors,
  type SignUpField,
  type SignUpValidationResult,
} from './sign-up-types';

/** A field's raw value: own properties of a plain object only, so arrays, strings and prototypes yield nothing. */
function rawField(input: unknown, field: SignUpField): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return Object.hasOwn(input, field) ? (input as Record<string, unknown>)[field] : undefined;
}

function checkField<F extends SignUpField>(field: F, input: unknown): FieldCheck<SignUpFieldValues[F]> {
  return SIGN_UP_FIELD_RULES[field](rawField(input, field));
}

/**
 * Validates and normalises a whole sign-up. Never throws: any input (untrusted JSON included) gives
 * either the normalised {@link SignUp} or an error code for each invalid field.
 */
export function validateSignUp(input: unknown): SignUpValidationResult {
  const checks: { readonly [F in SignUpField]: FieldCheck<SignUpFieldValues[F]> } = {
    firstName: checkField('firstName', input),
    lastName: checkField('lastName', input),
    email: checkField('email', input),
    phone: checkField('phone', input),
    cardCode: checkField('cardCode', input),
    acceptedTerms: checkField('acceptedTerms', input),
  };
  const { firstName, lastName, email, phone, cardCode, acceptedTerms } = checks;
  if (firstName.ok && lastName.ok && email.ok && phone.ok && cardCode.ok && acceptedTerms.ok) {
    const value: SignUp = {
      firstName: firstName.value,
      lastName: lastName.value,
      email: email.value,
      ...(phone.value === undefined ? {} : { phone: phone.value }), // an absent phone stays absent
      cardCode: cardCode.value,
      acceptedTerms: acceptedTerms.value,
    };
    return { ok: true, value };
  }
  const errors: SignUpErrors = {};
  for (const field of SIGN_UP_FIELDS) {
    const check = checks[field];
    if (!check.ok) errors[field] = check.error;
  }
  return { ok: false, errors };
}

/**
 * One field's error code, or `undefined` when it is valid. `input` is the whole form (the same
 * shape `validateSignUp` takes), so the form can check the field just left.
 */
export function validateSignUpField(field: SignUpField, input: unknown): SignUpErrorCode | undefined {
  const check = checkField(field, input);
  return check.ok ? undefined : check.error;
}
