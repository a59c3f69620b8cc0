/** A gift-card code is exactly this many digits. */
export const CARD_CODE_LENGTH = 16;

const DISPLAY_GROUP_SIZE = 4;

/**
 * Whether `code` (normalised) has a card code's shape: exactly 16 ASCII digits, not all zeros.
 * Decision: `0000000000000000` passes the Luhn checksum but is no card (issuers never start a
 * number with 0, and all zeros is what a placeholder or a blank scan reads as), so it is refused
 * as malformed, not registered.
 */
export function hasCardCodeShape(code: string): boolean {
  return code.length === CARD_CODE_LENGTH && /^[0-9]+$/.test(code) && !/^0+$/.test(code);
}

/** Removes the spaces and dashes people type or paste between groups; nothing else is touched. */
export function normalizeCardCode(input: string): string {
  return input.replace(/[ -]/g, '');
}

/**
 * The digits typed so far, grouped in fours with single spaces, for display while typing:
 * `'41111111'` → `'4111 1111'`. Anything that is not an ASCII digit is dropped. Extra digits are
 * kept (not cut at 16) so an over-long code shows, and fails validation, instead of silently shrinking.
 */
export function formatCardCode(input: string): string {
  const digits = input.replace(/[^0-9]/g, '');
  const groups: string[] = [];
  for (let start = 0; start < digits.length; start += DISPLAY_GROUP_SIZE) {
    groups.push(digits.slice(start, start + DISPLAY_GROUP_SIZE));
  }
  return groups.join(' ');
}

/** Whether a string of ASCII digits passes the Luhn (mod 10) checksum. Empty or non-digit input fails. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  // Walk from the right; every second digit is doubled, and 10..18 become 1..9.
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
