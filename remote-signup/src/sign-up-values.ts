import type { SignUpField } from '@special-gift/shared';

/** What the form holds while the user types: raw text, validated and normalised on submit. */
export interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  cardCode: string;
  acceptedTerms: boolean;
}

export const EMPTY_VALUES: SignUpValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  cardCode: '',
  acceptedTerms: false,
};

export function hasAnyValue(values: SignUpValues): boolean {
  return Object.values(values).some((value) => (typeof value === 'string' ? value.trim() !== '' : value));
}

/** The DOM id of a field's input, for labels and for moving focus to the first error. */
export const fieldId = (field: SignUpField) => `signup-${field}`;
