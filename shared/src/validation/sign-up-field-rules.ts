import { hasCardCodeShape, isLuhnValid, normalizeCardCode } from './card-code';
import { codePointLength } from './code-point-length';
import { EMAIL_MAX_LENGTH, normalizeEmail } from './email';
import { normalizePhone } from './phone';
import { isEmptyInputValue } from './required';
import type { SignUpErrorCode, SignUpField } from './sign-up-types';

export const NAME_MAX_LENGTH = 50;

/** Each field's value once it passes its rule; `phone` is `undefined` when none was given. */
export interface SignUpFieldValues {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string | undefined;
  readonly cardCode: string;
  readonly acceptedTerms: true;
}

export type FieldCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SignUpErrorCode };

const pass = <T>(value: T): FieldCheck<T> => ({ ok: true, value });
const fail = (error: SignUpErrorCode): FieldCheck<never> => ({ ok: false, error });

// Each rule takes the raw value as sent (any type, since server input is untrusted JSON) and
// either normalises it or names the error. A missing value is 'required'; a value of the wrong
// type is treated like unreadable text and gets the field's format error.

/**
 * What no name contains: C0 controls (NUL included: PostgreSQL refuses it), DEL and C1 controls;
 * the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which can
 * make a name display as something else; noncharacters (U+FDD0-U+FDEF, U+FFFE, U+FFFF) and tag
 * characters (U+E0000-U+E007F), which no text should carry; and a lone surrogate (not a character
 * at all). The left-to-right and right-to-left marks stay allowed: mixed-script names may need them.
 */
const FORBIDDEN_IN_NAME =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufffe\uffff]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// A name has at least one letter, of any script.
const LETTER = /\p{L}/u;

function checkName(raw: unknown): FieldCheck<string> {
  if (isEmptyInputValue(raw) || typeof raw !== 'string') return fail('required');
  const name = raw.trim();
  if (FORBIDDEN_IN_NAME.test(name)) return fail('invalid_characters');
  // Only invisible or format characters (U+200B, U+200D...), digits, punctuation or emoji: like
  // only spaces, no name was given.
  if (!LETTER.test(name)) return fail('required');
  return codePointLength(name) > NAME_MAX_LENGTH ? fail('too_long') : pass(name);
}

function checkEmail(raw: unknown): FieldCheck<string> {
  if (isEmptyInputValue(raw)) return fail('required');
  if (typeof raw !== 'string') return fail('invalid_email');
  if (codePointLength(raw.trim()) > EMAIL_MAX_LENGTH) return fail('too_long');
  const email = normalizeEmail(raw);
  return email === null ? fail('invalid_email') : pass(email);
}

function checkPhone(raw: unknown): FieldCheck<string | undefined> {
  if (isEmptyInputValue(raw)) return pass(undefined); // optional
  if (typeof raw !== 'string') return fail('invalid_phone');
  const phone = normalizePhone(raw);
  return phone === null ? fail('invalid_phone') : pass(phone);
}

function checkCardCode(raw: unknown): FieldCheck<string> {
  if (isEmptyInputValue(raw)) return fail('required');
  if (typeof raw !== 'string') return fail('invalid_card_code');
  const code = normalizeCardCode(raw.trim());
  if (!hasCardCodeShape(code)) return fail('invalid_card_code');
  return isLuhnValid(code) ? pass(code) : fail('card_checksum');
}

function checkAcceptedTerms(raw: unknown): FieldCheck<true> {
  // Only a real `true`: `'true'` or `1` from a sloppy client is not consent.
  return raw === true ? pass(true) : fail('consent_required');
}

/** One rule per field, each producing that field's normalised value. */
export const SIGN_UP_FIELD_RULES: { readonly [F in SignUpField]: (raw: unknown) => FieldCheck<SignUpFieldValues[F]> } =
  {
    firstName: checkName,
    lastName: checkName,
    email: checkEmail,
    phone: checkPhone,
    cardCode: checkCardCode,
    acceptedTerms: checkAcceptedTerms,
  };
