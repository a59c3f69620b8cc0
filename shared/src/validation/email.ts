import { codePointLength } from './code-point-length';

/** The longest address that fits an SMTP forward-path (RFC 5321 via its errata). */
export const EMAIL_MAX_LENGTH = 254;

// The WHATWG HTML "valid e-mail address" grammar, tightened to need a dot in the domain, so a
// typo such as `name@gmail` is caught. Labels are letters, digits and inner hyphens, 1-63 long.
const LOCAL_PART = "[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const EMAIL = new RegExp(`^${LOCAL_PART}@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})+$`);

/** Whether `input`, once trimmed, is a valid address of at most {@link EMAIL_MAX_LENGTH} characters. */
export function isValidEmail(input: string): boolean {
  const email = input.trim();
  return codePointLength(email) <= EMAIL_MAX_LENGTH && EMAIL.test(email);
}

/**
 * The address trimmed, with its domain lower-cased, or `null` when it is not valid. The local part
 * keeps its case: only the domain is case-insensitive by standard.
 */
export function normalizeEmail(input: string): string | null {
  if (!isValidEmail(input)) return null;
  const email = input.trim();
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
}
