// E.164: a plus and 8 to 15 digits (the country code included).
const E164 = /^\+[0-9]{8,15}$/;

/**
 * The phone number in E.164 form (`+441234567890`), or `null` when it cannot be one.
 * Spaces (any whitespace, as pasted numbers carry tabs or no-break spaces), dashes, dots and
 * parentheses are layout and are removed; a leading international `00` prefix becomes `+`.
 */
export function normalizePhone(input: string): string | null {
  const compact = input.replace(/[\s.()-]/g, '');
  const withPlus = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return E164.test(withPlus) ? withPlus : null;
}
