// TEST FIXTURES ONLY: card codes for unit, API and e2e tests, as `@special-gift/shared/testing/cards`
// (plain TypeScript, importable from Node: it needs neither Jest nor a DOM, unlike the rest of
// /testing). Production bundles never carry them.
import { isLuhnValid } from '../../validation';

/** Well-known Luhn-valid 16-digit numbers (public test numbers, not real cards). */
export const VALID_TEST_CARD_CODES = ['4111111111111111', '5555555555554444', '4012888888881881'] as const;

/** 16 digits that fail the Luhn checksum (the first valid code with its last digit changed). */
export const INVALID_CHECKSUM_TEST_CARD_CODE = '4111111111111112';

/**
 * A Luhn-valid 16-digit code made from `seed` (0 to 10^15 - 1), so suites that share a persistent
 * database (e2e) can use a fresh, unregistered card each run, e.g. `makeTestCardCode(Date.now())`.
 */
export function makeTestCardCode(seed: number): string {
  const payload = String(Math.trunc(Math.abs(seed)) % 1e15).padStart(15, '0');
  for (let check = 0; check <= 9; check += 1) {
    const code = `${payload}${check}`;
    if (isLuhnValid(code)) return code;
  }
  // Unreachable: exactly one check digit makes any payload Luhn-valid.
  throw new Error(`No Luhn check digit for ${payload}`);
}
