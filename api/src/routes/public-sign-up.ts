import type { SignUpRecord } from '../db/sign-up-repository';

/** A sign-up as the API shows it: never the full card code, only its last four digits. */
export interface PublicSignUp {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string | null;
  readonly cardLast4: string;
  readonly createdAt: string;
}

export function toPublicSignUp(record: SignUpRecord): PublicSignUp {
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    phone: record.phone,
    cardLast4: record.cardCode.slice(-4),
    createdAt: record.createdAt,
  };
}

/** The 201 answer: the sign-up and, for its creator only, the token that reads it back. */
export interface CreatedSignUp extends PublicSignUp {
  readonly readToken: string;
}

/**
 * Relative to the request URL (`…/sign-ups`), so it is right whether the API is called directly
 * (`/v1/sign-ups/<id>`) or through the host's proxy (`/api/v1/sign-ups/<id>`).
 */
export const signUpLocation = (id: string) => `sign-ups/${id}`;
