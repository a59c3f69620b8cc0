import type { PublicSignUp } from '@special-gift/shared/api';
import type { SignUpRecord } from './store';

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

/**
 * Relative to the request URL (`…/sign-ups`), so it is right whether the API is called directly
 * (`/v1/sign-ups/<id>`) or through the host's proxy (`/api/v1/sign-ups/<id>`).
 */
export const signUpLocation = (id: string) => `sign-ups/${id}`;
