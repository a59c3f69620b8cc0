// The sign-up rules, shared by the browser form and the API so both judge input the same way.
// Pure TypeScript: no DOM, no dependencies. (Its test fixtures are @special-gift/shared/testing/cards.)
export { isEmptyInputValue } from './required';
export { codePointLength } from './code-point-length';
export { CARD_CODE_LENGTH, formatCardCode, isLuhnValid, normalizeCardCode } from './card-code';
export { normalizePhone } from './phone';
export { EMAIL_MAX_LENGTH, isValidEmail, normalizeEmail } from './email';
export { NAME_MAX_LENGTH } from './sign-up-field-rules';
export { validateSignUp, validateSignUpField } from './validate-sign-up';
export {
  SIGN_UP_FIELDS,
  type SignUp,
  type SignUpErrorCode,
  type SignUpErrors,
  type SignUpField,
  type SignUpInput,
  type SignUpValidationResult,
} from './sign-up-types';
export {
  parseScannedCardCode,
  type ScanLinkOptions,
  type ScannedCardCode,
  type ScannedCardCodeProblem,
} from './scanned-card-code';
