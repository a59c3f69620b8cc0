/** The sign-up form's fields, in form order (also the order errors are reported and focused). */
export const SIGN_UP_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'cardCode', 'acceptedTerms'] as const;

export type SignUpField = (typeof SIGN_UP_FIELDS)[number];

/** What a client sends. Validation takes `unknown`: the server gets it as untrusted JSON. */
export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  cardCode: string;
  acceptedTerms: boolean;
}

/** A valid sign-up, normalised: what the server stores. */
export interface SignUp {
  /** Trimmed, 1-50 characters. */
  readonly firstName: string;
  /** Trimmed, 1-50 characters. */
  readonly lastName: string;
  /** Trimmed, domain lower-cased. */
  readonly email: string;
  /** E.164 (`+441234567890`); absent when none was given. */
  readonly phone?: string;
  /** Exactly 16 digits, Luhn-valid. */
  readonly cardCode: string;
  readonly acceptedTerms: true;
}

/** Every per-field error code, in the API's answers and the form's messages. */
export const SIGN_UP_ERROR_CODES = [
  'required',
  'too_long',
  // Control characters (NUL and the rest of C0, DEL, C1), direction overrides or a broken surrogate.
  'invalid_characters',
  'invalid_email',
  'invalid_phone',
  'invalid_card_code',
  'card_checksum',
  'consent_required',
  // Only the server can know this one: the card code is taken.
  'already_registered',
] as const;
export type SignUpErrorCode = (typeof SIGN_UP_ERROR_CODES)[number];

export type SignUpErrors = Partial<Record<SignUpField, SignUpErrorCode>>;

export type SignUpValidationResult =
  { readonly ok: true; readonly value: SignUp } | { readonly ok: false; readonly errors: SignUpErrors };
