import { formatCardCode, isLuhnValid, normalizeCardCode } from './card-code';
import { INVALID_CHECKSUM_TEST_CARD_CODE, VALID_TEST_CARD_CODES } from '../testing/cards';

describe('normalizeCardCode', () => {
  it('strips spaces and dashes', () => {
    expect(normalizeCardCode('4111 1111-1111 1111')).toBe('4111111111111111');
    expect(normalizeCardCode(' 4111--1111 ')).toBe('41111111');
  });

  it('leaves every other character alone, so bad input stays visibly bad', () => {
    expect(normalizeCardCode('4111.1111/abc')).toBe('4111.1111/abc');
    expect(normalizeCardCode('4111\t1111')).toBe('4111\t1111');
  });
});

describe('formatCardCode', () => {
  it('groups a full code in fours', () => {
    expect(formatCardCode('4111111111111111')).toBe('4111 1111 1111 1111');
  });

  it.each([
    ['', ''],
    ['4', '4'],
    ['4111', '4111'],
    ['41111', '4111 1'],
    ['411111111', '4111 1111 1'],
  ])('formats partial input %j as %j', (input, expected) => {
    expect(formatCardCode(input)).toBe(expected);
  });

  it('ignores non-digits and re-groups already formatted input', () => {
    expect(formatCardCode('4111-1111 11a1')).toBe('4111 1111 111');
    expect(formatCardCode('4111 1111 1111 1111')).toBe('4111 1111 1111 1111');
    expect(formatCardCode('abc')).toBe('');
  });

  it('keeps digits beyond 16 rather than dropping them', () => {
    expect(formatCardCode('41111111111111112')).toBe('4111 1111 1111 1111 2');
  });
});

describe('isLuhnValid', () => {
  it.each(VALID_TEST_CARD_CODES)('accepts the known-valid number %s', (code) => {
    expect(isLuhnValid(code)).toBe(true);
  });

  it('accepts short Luhn-valid numbers too (the length rule is separate)', () => {
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('0')).toBe(true);
  });

  it('rejects a wrong check digit and a swapped pair', () => {
    expect(isLuhnValid(INVALID_CHECKSUM_TEST_CARD_CODE)).toBe(false);
    expect(isLuhnValid('79927398710')).toBe(false);
    expect(isLuhnValid('4111111111111121')).toBe(false);
  });

  it('rejects empty and non-digit input', () => {
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('4111 1111 1111 1111')).toBe(false);
    expect(isLuhnValid('411111111111111a')).toBe(false);
  });
});
