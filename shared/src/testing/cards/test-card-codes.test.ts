import { isLuhnValid } from '../../validation';
import { INVALID_CHECKSUM_TEST_CARD_CODE, makeTestCardCode, VALID_TEST_CARD_CODES } from '.';

describe('test card codes', () => {
  it('are 16 digits, valid ones pass Luhn and the invalid one fails', () => {
    for (const code of VALID_TEST_CARD_CODES) {
      expect(code).toMatch(/^[0-9]{16}$/);
      expect(isLuhnValid(code)).toBe(true);
    }
    expect(INVALID_CHECKSUM_TEST_CARD_CODE).toMatch(/^[0-9]{16}$/);
    expect(isLuhnValid(INVALID_CHECKSUM_TEST_CARD_CODE)).toBe(false);
  });

  it('makeTestCardCode gives distinct valid codes for distinct seeds', () => {
    const codes = [0, 1, 2, 411111111111111, 1_700_000_000_000].map(makeTestCardCode);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9]{16}$/);
      expect(isLuhnValid(code)).toBe(true);
    }
    expect(new Set(codes).size).toBe(codes.length);
    expect(makeTestCardCode(411111111111111)).toBe('4111111111111111');
  });
});
